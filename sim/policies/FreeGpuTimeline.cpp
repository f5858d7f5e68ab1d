#include "sim/policies/FreeGpuTimeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acmesim {

FreeGpuTimeline::FreeGpuTimeline(const ClusterState& cluster, double now)
    : topology_(cluster.topology())
    , now_(now)
    , free_now_(topology_.node_count())
    , in_service_(topology_.node_count())
    , changes_(topology_.node_count())
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

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest_whole_nodes(int pod, int nodes, double duration_s) const
{
  const int node_gpus = topology_.spec().pods[static_cast<std::size_t>(pod)].gpus_per_node;
  const NodeId first = topology_.first_node_of_pod(pod);
  const NodeId last = first + static_cast<NodeId>(topology_.spec().pods[static_cast<std::size_t>(pod)].nodes);
  // Each stretch [a, b) in which a node is wholly free and that is long enough lets the job
  // start on it at any time in [a, b - duration]. The earliest time that enough such ranges
  // cover is the start of one of them: sweep the range ends in time order, starts first.
  struct Range {
    double from, to;
    NodeId node;
  };
  std::vector<Range> ranges;
  const auto add_range = [&](NodeId node, double a, double b) {
    if (b - a >= duration_s)
      ranges.push_back({a, b - duration_s, node});
  };
  for (NodeId node = first; node < last; ++node) {
    int free = free_now_[node];
    double whole_since = free == node_gpus ? now_ : -1;
    for (const auto& [time, change] : changes_[node]) {
      free += change;
      if (free == node_gpus && whole_since < 0) {
        whole_since = time;
      } else if (free != node_gpus && whole_since >= 0) {
        add_range(node, whole_since, time);
        whole_since = -1;
      }
    }
    if (whole_since >= 0)
      add_range(node, whole_since, std::numeric_limits<double>::infinity());
  }
  std::vector<std::pair<double, int>> sweep; // (time, +1 range opens / -1 range closes after it)
  for (const Range& r : ranges) {
    sweep.push_back({r.from, 0});
    sweep.push_back({r.to, 1});
  }
  std::sort(sweep.begin(), sweep.end());
  int open = 0;
  for (const auto& [time, closes] : sweep) {
    open += closes ? -1 : 1;
    if (closes || open < nodes)
      continue;
    Allocation allocation;
    std::vector<NodeId> chosen;
    for (const Range& r : ranges)
      if (r.from <= time && time <= r.to)
        chosen.push_back(r.node);
    std::sort(chosen.begin(), chosen.end());
    chosen.resize(static_cast<std::size_t>(nodes));
    for (NodeId node : chosen)
      allocation.parts.push_back({node, node_gpus});
    return Slot{time, std::move(allocation)};
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
