// FreeGpuTimeline's indexes kept up to date: each node's stretches with some number of GPUs free,
// worked out again only for the nodes whose timeline changed, and the per-pod indexes built from
// them on a level's first question (FreeGpuTimeline.hpp).
#include "sim/policies/FreeGpuTimeline.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <numeric>
#include <tuple>

namespace acmesim {

void FreeGpuTimeline::stretches_of(NodeId node, int node_gpus, std::vector<LevelStretch>& by_level,
                                   int only_level) const
{
  auto& stretches = by_time_scratch_;
  stretches.clear();
  // The levels kept: the top one (wholly free) and those with an index.
  const auto& indexed = at_least_[static_cast<std::size_t>(topology_.pod_of(node))];
  const auto wanted = [&](int g) {
    return only_level == 0 ? g == node_gpus || indexed[static_cast<std::size_t>(g - 1)] : g == only_level;
  };
  auto& since = since_scratch_; // by level: open since
  since.assign(static_cast<std::size_t>(node_gpus) + 1, now_);
  const auto level = [node_gpus](int free) { return std::clamp(free, 0, node_gpus); };
  int free = free_now_[node];
  const auto& changes = changes_[node];
  for (std::size_t next = 0; next < changes.size();) {
    // All changes at one time at once: a level that is gained and lost at once holds no stretch.
    const double at = changes[next].first;
    const int before = level(free);
    for (; next < changes.size() && changes[next].first == at; ++next)
      free += changes[next].second;
    for (int g = before + 1; g <= level(free); ++g)
      since[static_cast<std::size_t>(g)] = at;
    for (int g = level(free) + 1; g <= before; ++g)
      if (wanted(g))
        stretches.push_back({g, since[static_cast<std::size_t>(g)], at});
  }
  for (int g = 1; g <= level(free); ++g)
    if (wanted(g))
      stretches.push_back({g, since[static_cast<std::size_t>(g)], std::numeric_limits<double>::infinity()});
  // Each level's stretches came in order of time: placing them level by level keeps that.
  auto& first = first_scratch_; // by level, where its stretches go
  first.assign(static_cast<std::size_t>(node_gpus) + 2, 0);
  for (const LevelStretch& s : stretches)
    ++first[static_cast<std::size_t>(s.level) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  by_level.resize(stretches.size());
  for (const LevelStretch& s : stretches)
    by_level[first[static_cast<std::size_t>(s.level)]++] = s;
}

void FreeGpuTimeline::refresh(int pod) const
{
  const auto by_level_start_end = [](const LevelStretch& a, const LevelStretch& b) {
    return std::tie(a.level, a.from, a.to) < std::tie(b.level, b.from, b.to);
  };
  const int node_gpus = pod_spec(pod).gpus_per_node;
  auto& at_least = at_least_[static_cast<std::size_t>(pod)];
  auto& fresh = fresh_scratch_;
  auto& moved = moved_scratch_;
  for (const NodeId node : stale_.of(pod)) {
    stretches_of(node, node_gpus, fresh);
    auto& known = stretches_[node];
    moved.clear();
    std::set_difference(known.begin(), known.end(), fresh.begin(), fresh.end(), std::back_inserter(moved),
                        by_level_start_end);
    const std::size_t gone = moved.size();
    std::set_difference(fresh.begin(), fresh.end(), known.begin(), known.end(), std::back_inserter(moved),
                        by_level_start_end);
    for (std::size_t i = 0; i < moved.size(); ++i) {
      const LevelStretch& s = moved[i];
      if (auto& index = at_least[static_cast<std::size_t>(s.level - 1)])
        i < gone ? index->erase({s.from, s.to, node}) : index->insert({s.from, s.to, node});
      if (s.level == node_gpus)
        whole_stale_.mark(node, pod);
    }
    known.swap(fresh);
  }
  stale_.clear(pod);
}

const FreeStretchIndex& FreeGpuTimeline::at_least(int pod, int gpus) const
{
  auto& index = at_least_[static_cast<std::size_t>(pod)][static_cast<std::size_t>(gpus - 1)];
  refresh(pod);
  if (index)
    return *index;
  const int node_gpus = pod_spec(pod).gpus_per_node;
  std::vector<FreeStretch> stretches;
  for (NodeId node = topology_.first_node_of_pod(pod), end = end_of_pod(pod); node < end; ++node) {
    auto& known = stretches_[node];
    if (gpus != node_gpus) {
      // Worked out from its first question on (most levels are never asked about): this level
      // alone, then kept up to date with the others. The top level always is.
      auto& level = fresh_scratch_;
      stretches_of(node, node_gpus, level, gpus);
      known.insert(std::upper_bound(known.begin(), known.end(), gpus,
                                    [](int g, const LevelStretch& s) { return g < s.level; }),
                   level.begin(), level.end());
    }
    for (const LevelStretch& s : known)
      if (s.level == gpus)
        stretches.push_back({s.from, s.to, node});
  }
  index.emplace();
  index->assign(std::move(stretches));
  return *index;
}

const WholeFreeStretches& FreeGpuTimeline::whole_free(int pod) const
{
  refresh(pod);
  const int node_gpus = pod_spec(pod).gpus_per_node;
  const std::vector<NodeId>& stale = whole_stale_.of(pod);
  std::vector<WholeFreeStretches::Stretch> stretches;
  for (const NodeId node : stale) {
    for (const LevelStretch& s : stretches_[node])
      if (s.level == node_gpus)
        stretches.push_back({s.from, s.to, node});
  }
  whole_free_[static_cast<std::size_t>(pod)].replace(stale, std::move(stretches));
  whole_stale_.clear(pod);
  return whole_free_[static_cast<std::size_t>(pod)];
}

} // namespace acmesim
