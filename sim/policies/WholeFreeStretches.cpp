#include "sim/policies/WholeFreeStretches.hpp"

#include <algorithm>

namespace acmesim {

WholeFreeStretches::WholeFreeStretches(NodeId first_node, int nodes)
    : first_node_(first_node), replaced_(static_cast<std::size_t>(nodes), 0)
{
}

template <typename Order>
void WholeFreeStretches::merge(std::vector<Stretch>& into, std::vector<Stretch>& fresh) const
{
  into.erase(std::remove_if(into.begin(), into.end(),
                            [this](const Stretch& s) { return replaced_[s.node - first_node_] != 0; }),
             into.end());
  std::sort(fresh.begin(), fresh.end(), Order{});
  const auto kept = static_cast<std::ptrdiff_t>(into.size());
  into.insert(into.end(), fresh.begin(), fresh.end());
  std::inplace_merge(into.begin(), into.begin() + kept, into.end(), Order{});
}

void WholeFreeStretches::replace(const std::vector<NodeId>& nodes, std::vector<Stretch> stretches)
{
  for (const NodeId node : nodes)
    replaced_[node - first_node_] = 1;
  merge<ByStart>(by_start_, stretches);
  merge<ByEnd>(by_end_, stretches);
  for (const NodeId node : nodes)
    replaced_[node - first_node_] = 0;
}

template <typename Endless, typename Stop>
std::optional<double> WholeFreeStretches::sweep(double duration_s, double now, Endless endless, Stop stop) const
{
  // A stretch at least `duration_s` long lets the job start on its node at any time in
  // [from, to - duration_s]. The count changes only at the start of one: sweep the starts in
  // order, closing the stretches that end too soon for a start at that time.
  const auto begins = [now](const Stretch& s) { return std::max(s.from, now); };
  const auto long_enough = [&](const Stretch& s) { return lasts(s, duration_s, now); };
  int open = 0;
  auto closing = by_end_.begin();
  for (auto opening = by_start_.begin(); opening != by_start_.end();) {
    const double t = begins(*opening);
    for (; opening != by_start_.end() && begins(*opening) == t; ++opening)
      open += endless(*opening) || long_enough(*opening) ? 1 : 0;
    for (; closing != by_end_.end() && closing->to - duration_s < t; ++closing)
      open -= !endless(*closing) && long_enough(*closing) ? 1 : 0;
    if (stop(t, open))
      return t;
  }
  return std::nullopt;
}

std::optional<WholeFreeStretches::Fit> WholeFreeStretches::earliest(int nodes, double duration_s, double now) const
{
  const auto never = [](const Stretch&) { return false; };
  const auto t = sweep(duration_s, now, never, [nodes](double, int open) { return open >= nodes; });
  if (!t)
    return std::nullopt;
  Fit fit{*t, {}};
  for (auto s = by_start_.begin(); s != by_start_.end() && s->from <= *t; ++s)
    if (lasts(*s, duration_s, now) && *t <= s->to - duration_s)
      fit.nodes.push_back(s->node);
  std::sort(fit.nodes.begin(), fit.nodes.end());
  fit.nodes.resize(static_cast<std::size_t>(nodes));
  return fit;
}

int WholeFreeStretches::most_at_once(double duration_s, double now, double before,
                                     const std::vector<char>& taken_off) const
{
  const auto reaches_on = [&](const Stretch& s) {
    return !taken_off.empty() && taken_off[s.node - first_node_] != 0 && s.to >= before;
  };
  int most = 0;
  sweep(duration_s, now, reaches_on, [&most, before](double t, int open) {
    if (t >= before)
      return true;
    most = std::max(most, open);
    return false;
  });
  return most;
}

} // namespace acmesim
