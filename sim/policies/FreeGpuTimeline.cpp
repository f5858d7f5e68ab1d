#include "sim/policies/FreeGpuTimeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace acmesim {

FreeGpuTimeline::FreeGpuTimeline(const ClusterState& cluster, double now)
    : topology_(cluster.topology())
    , now_(now)
    , free_now_(topology_.node_count())
    , in_service_(topology_.node_count())
    , changes_(topology_.node_count())
    , whole_free_(topology_.pod_count())
{
  for (NodeId node = 0; node < topology_.node_count(); ++node) {
    free_now_[node] = cluster.free_gpus(node);
    in_service_[node] = cluster.in_service(node);
  }
}

void FreeGpuTimeline::add_change(NodeId node, double at, int change)
{
  if (!in_service_[node] || !std::isfinite(at))
    return; // GPUs given back on a node out of service do not become free
  changed(node);
  if (at <= now_) {
    free_now_[node] += change;
    return;
  }
  auto& changes = changes_[node];
  const std::pair<double, int> entry{at, change};
  // At one time, gains come before losses, so that a window starting there sees both.
  changes.insert(std::upper_bound(changes.begin(), changes.end(), entry,
                                  [](const auto& a, const auto& b) {
                                    return a.first < b.first || (a.first == b.first && a.second > b.second);
                                  }),
                 entry);
}

void FreeGpuTimeline::release(const Allocation& allocation, double at)
{
  for (const auto& part : allocation.parts)
    add_change(part.node, at, part.gpus);
}

void FreeGpuTimeline::hold(const Allocation& allocation, double from, double until)
{
  for (const auto& part : allocation.parts) {
    add_change(part.node, from, -part.gpus);
    add_change(part.node, until, part.gpus);
  }
}

void FreeGpuTimeline::advance_to(double now)
{
  now_ = std::max(now_, now); // stretches that began before are read as beginning now
  for (NodeId node = 0; node < changes_.size(); ++node) {
    auto& changes = changes_[node];
    auto due = changes.begin();
    for (; due != changes.end() && due->first <= now_; ++due)
      free_now_[node] += due->second;
    if (due != changes.begin())
      changed(node);
    changes.erase(changes.begin(), due);
  }
}

int FreeGpuTimeline::min_free(NodeId node, double from, double until) const
{
  int free = free_now_[node];
  auto it = changes_[node].begin();
  const auto end = changes_[node].end();
  for (; it != end && it->first <= from; ++it)
    free += it->second;
  int lowest = free;
  for (; it != end && it->first < until; ++it) {
    free += it->second;
    lowest = std::min(lowest, free);
  }
  return lowest;
}

template <typename Visit>
void FreeGpuTimeline::for_each_rise(NodeId node, Visit visit) const
{
  if (!visit(now_))
    return;
  double last = now_;
  for (const auto& [time, change] : changes_[node])
    if (change > 0 && time > last) {
      last = time;
      if (!visit(time))
        return;
    }
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest_in_node(int pod, int gpus, double duration_s) const
{
  std::optional<Slot> best;
  int best_free = 0;
  const NodeId first = topology_.first_node_of_pod(pod);
  const NodeId last = first + static_cast<NodeId>(topology_.spec().pods[static_cast<std::size_t>(pod)].nodes);
  for (NodeId node = first; node < last; ++node)
    for_each_rise(node, [&](double t) {
      if (best && t > best->start)
        return false;
      const int free = min_free(node, t, t + duration_s);
      if (free < gpus)
        return true; // try the node's next rise
      if (!best || t < best->start || free < best_free) {
        best = Slot{t, Allocation{{{node, gpus}}}};
        best_free = free;
      }
      return false;
    });
  return best;
}

const FreeGpuTimeline::PodWholeFree& FreeGpuTimeline::whole_free(int pod) const
{
  PodWholeFree& w = whole_free_[static_cast<std::size_t>(pod)];
  if (w.valid)
    return w;
  const int node_gpus = topology_.spec().pods[static_cast<std::size_t>(pod)].gpus_per_node;
  const NodeId first = topology_.first_node_of_pod(pod);
  const NodeId last = first + static_cast<NodeId>(topology_.spec().pods[static_cast<std::size_t>(pod)].nodes);
  w.by_start.clear();
  for (NodeId node = first; node < last; ++node) {
    int free = free_now_[node];
    double since = free == node_gpus ? now_ : -1;
    for (const auto& [time, change] : changes_[node]) {
      free += change;
      if (free == node_gpus && since < 0) {
        since = time;
      } else if (free != node_gpus && since >= 0) {
        if (time > since)
          w.by_start.push_back({since, time, node});
        since = -1;
      }
    }
    if (since >= 0)
      w.by_start.push_back({since, std::numeric_limits<double>::infinity(), node});
  }
  w.by_end = w.by_start;
  std::sort(w.by_start.begin(), w.by_start.end(),
            [](const WholeFree& a, const WholeFree& b) { return std::tie(a.from, a.node) < std::tie(b.from, b.node); });
  std::sort(w.by_end.begin(), w.by_end.end(),
            [](const WholeFree& a, const WholeFree& b) { return std::tie(a.to, a.node) < std::tie(b.to, b.node); });
  w.valid = true;
  return w;
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest_whole_nodes(int pod, int nodes, double duration_s) const
{
  // A stretch [from, to) at least `duration_s` long lets the job start on its node at any time in
  // [from, to - duration_s]. The earliest time enough of them cover is the start of one: sweep
  // the starts in order, closing the stretches that end too soon for a start at that time.
  const PodWholeFree& w = whole_free(pod);
  const auto long_enough = [duration_s](const WholeFree& r) { return r.to - r.from >= duration_s; };
  int open = 0;
  auto closing = w.by_end.begin();
  for (auto opening = w.by_start.begin(); opening != w.by_start.end();) {
    // Stretches kept from before the present moved begin now, as far as the job is concerned: a
    // stretch too short from now on is closed at once below.
    const double t = std::max(opening->from, now_);
    for (; opening != w.by_start.end() && std::max(opening->from, now_) == t; ++opening)
      open += long_enough(*opening) ? 1 : 0;
    for (; closing != w.by_end.end() && closing->to - duration_s < t; ++closing)
      open -= long_enough(*closing) ? 1 : 0;
    if (open < nodes)
      continue;
    std::vector<NodeId> chosen;
    for (const WholeFree& r : w.by_start) {
      if (r.from > t)
        break;
      if (long_enough(r) && t <= r.to - duration_s)
        chosen.push_back(r.node);
    }
    std::sort(chosen.begin(), chosen.end());
    const int node_gpus = topology_.spec().pods[static_cast<std::size_t>(pod)].gpus_per_node;
    Allocation allocation;
    for (std::size_t k = 0; k < static_cast<std::size_t>(nodes); ++k)
      allocation.parts.push_back({chosen[k], node_gpus});
    return Slot{t, std::move(allocation)};
  }
  return std::nullopt;
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest(int gpus, double duration_s) const
{
  std::optional<Slot> best;
  for (int pod = 0; pod < static_cast<int>(topology_.pod_count()); ++pod) {
    const JobShape shape = job_shape(gpus, topology_.spec().pods[static_cast<std::size_t>(pod)].gpus_per_node);
    const std::optional<Slot> slot = shape.whole_nodes ? earliest_whole_nodes(pod, shape.nodes, duration_s)
                                                       : earliest_in_node(pod, gpus, duration_s);
    if (slot && (!best || slot->start < best->start))
      best = slot;
  }
  return best;
}

} // namespace acmesim
