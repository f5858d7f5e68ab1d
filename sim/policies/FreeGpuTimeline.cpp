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
    , stale_(topology_.pod_count())
    , is_stale_(topology_.node_count())
{
  for (int pod = 0; pod < static_cast<int>(topology_.pod_count()); ++pod)
    whole_free_.emplace_back(topology_.first_node_of_pod(pod), pod_spec(pod).nodes);
  for (NodeId node = 0; node < topology_.node_count(); ++node) {
    free_now_[node] = cluster.free_gpus(node);
    in_service_[node] = cluster.in_service(node);
    changed(node);
  }
}

const PodSpec& FreeGpuTimeline::pod_spec(int pod) const
{
  return topology_.spec().pods[static_cast<std::size_t>(pod)];
}

NodeId FreeGpuTimeline::end_of_pod(int pod) const
{
  return topology_.first_node_of_pod(pod) + static_cast<NodeId>(pod_spec(pod).nodes);
}

void FreeGpuTimeline::changed(NodeId node)
{
  if (is_stale_[node])
    return;
  is_stale_[node] = true;
  stale_[static_cast<std::size_t>(topology_.pod_of(node))].push_back(node);
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

std::optional<std::pair<double, int>> FreeGpuTimeline::earliest_on_node(NodeId node, int gpus, double duration_s,
                                                                      double latest) const
{
  const auto& changes = changes_[node];
  double start = now_;
  int at_start = free_now_[node]; // free GPUs once every change up to `start` is made
  std::size_t next = 0;           // the first change after `start`
  while (start <= latest) {
    int free = at_start;
    int lowest = at_start;
    std::size_t k = next;
    const double until = start + duration_s;
    for (; lowest >= gpus && k < changes.size() && changes[k].first < until; ++k) {
      free += changes[k].second;
      lowest = std::min(lowest, free);
    }
    if (lowest >= gpus)
      return std::pair{start, lowest};
    // Every start up to the time the window fell short includes that time (a loss: gains come
    // first), so fails too. The next start worth trying is the next time the node gains GPUs.
    const double short_at = k == next ? start : changes[k - 1].first;
    for (; next < changes.size() && changes[next].first <= short_at; ++next)
      at_start += changes[next].second;
    bool gains = false;
    while (!gains && next < changes.size()) {
      start = changes[next].first;
      for (; next < changes.size() && changes[next].first == start; ++next) {
        gains = gains || changes[next].second > 0;
        at_start += changes[next].second;
      }
    }
    if (!gains)
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest_in_node(int pod, int gpus, double duration_s) const
{
  std::optional<Slot> best;
  int best_free = 0;
  for (NodeId node = topology_.first_node_of_pod(pod), end = end_of_pod(pod); node < end; ++node) {
    const double latest = best ? best->start : std::numeric_limits<double>::infinity();
    const auto found = earliest_on_node(node, gpus, duration_s, latest);
    if (found && (!best || found->first < best->start || found->second < best_free)) {
      best = Slot{found->first, Allocation{{{node, gpus}}}};
      best_free = found->second;
    }
  }
  return best;
}

double FreeGpuTimeline::wholly_free_until(NodeId node, int node_gpus) const
{
  if (free_now_[node] != node_gpus)
    return now_;
  int free = node_gpus;
  for (const auto& [time, change] : changes_[node])
    if ((free += change) != node_gpus)
      return time;
  return std::numeric_limits<double>::infinity();
}

const WholeFreeStretches& FreeGpuTimeline::whole_free(int pod) const
{
  const int node_gpus = pod_spec(pod).gpus_per_node;
  auto& stale = stale_[static_cast<std::size_t>(pod)];
  std::vector<WholeFreeStretches::Stretch> stretches;
  for (const NodeId node : stale) {
    int free = free_now_[node];
    double since = free == node_gpus ? now_ : -1;
    for (const auto& [time, change] : changes_[node]) {
      free += change;
      if (free == node_gpus && since < 0) {
        since = time;
      } else if (free != node_gpus && since >= 0) {
        if (time > since)
          stretches.push_back({since, time, node});
        since = -1;
      }
    }
    if (since >= 0)
      stretches.push_back({since, std::numeric_limits<double>::infinity(), node});
    is_stale_[node] = false;
  }
  whole_free_[static_cast<std::size_t>(pod)].replace(stale, std::move(stretches));
  stale.clear();
  return whole_free_[static_cast<std::size_t>(pod)];
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest_whole_nodes(int pod, int nodes, double duration_s) const
{
  const auto fit = whole_free(pod).earliest(nodes, duration_s, now_);
  if (!fit)
    return std::nullopt;
  const int node_gpus = pod_spec(pod).gpus_per_node;
  Allocation allocation;
  for (const NodeId node : fit->nodes)
    allocation.parts.push_back({node, node_gpus});
  return Slot{fit->start, std::move(allocation)};
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest(int gpus, double duration_s) const
{
  std::optional<Slot> best;
  for (int pod = 0; pod < static_cast<int>(topology_.pod_count()); ++pod) {
    const JobShape shape = job_shape(gpus, pod_spec(pod).gpus_per_node);
    const std::optional<Slot> slot = shape.whole_nodes ? earliest_whole_nodes(pod, shape.nodes, duration_s)
                                                       : earliest_in_node(pod, gpus, duration_s);
    if (slot && (!best || slot->start < best->start))
      best = slot;
  }
  return best;
}

bool FreeGpuTimeline::may_start_now(int gpus, double duration_s) const
{
  for (int pod = 0; pod < static_cast<int>(topology_.pod_count()); ++pod) {
    const int node_gpus = pod_spec(pod).gpus_per_node;
    const JobShape shape = job_shape(gpus, node_gpus);
    int wholly_free = 0;
    for (NodeId node = topology_.first_node_of_pod(pod), end = end_of_pod(pod); node < end; ++node) {
      if (free_now_[node] < shape.gpus_per_node)
        continue;
      if (!shape.whole_nodes && earliest_on_node(node, gpus, duration_s, now_))
        return true;
      // WholeFreeStretches::earliest's closing test for a stretch open now, without its length
      // test (which only ever refuses more): never false where that answer is now.
      if (shape.whole_nodes && !(wholly_free_until(node, node_gpus) - duration_s < now_) &&
          ++wholly_free >= shape.nodes)
        return true;
    }
  }
  return false;
}

} // namespace acmesim
