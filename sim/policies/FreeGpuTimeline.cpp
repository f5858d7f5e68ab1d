#include "sim/policies/FreeGpuTimeline.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace acmesim {

FreeGpuTimeline::FreeGpuTimeline(const ClusterState& cluster, double now)
    : topology_(cluster.topology())
    , now_(now)
    , free_now_(topology_.node_count())
    , with_free_now_(topology_.pod_count())
    , in_service_(topology_.node_count())
    , changes_(topology_.node_count())
    , at_least_(topology_.pod_count())
    , stretches_(topology_.node_count())
    , stale_(topology_.pod_count(), topology_.node_count())
    , whole_stale_(topology_.pod_count(), topology_.node_count())
{
  for (int pod = 0; pod < static_cast<int>(topology_.pod_count()); ++pod) {
    at_least_[static_cast<std::size_t>(pod)].resize(static_cast<std::size_t>(pod_spec(pod).gpus_per_node));
    whole_free_.emplace_back(topology_.first_node_of_pod(pod), pod_spec(pod).nodes);
  }
  for (NodeId node = 0; node < topology_.node_count(); ++node) {
    add_free_now(node, cluster.free_gpus(node));
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

void FreeGpuTimeline::MarkedNodes::mark(NodeId node, int pod)
{
  if (marked[node])
    return;
  marked[node] = true;
  by_pod[static_cast<std::size_t>(pod)].push_back(node);
}

void FreeGpuTimeline::MarkedNodes::clear(int pod)
{
  for (const NodeId node : by_pod[static_cast<std::size_t>(pod)])
    marked[node] = false;
  by_pod[static_cast<std::size_t>(pod)].clear();
}

void FreeGpuTimeline::changed(NodeId node) const
{
  stale_.mark(node, topology_.pod_of(node));
}

void FreeGpuTimeline::add_change(NodeId node, double at, int change)
{
  if (!kept(node, at))
    return;
  changed(node);
  if (at <= now_) {
    add_free_now(node, change);
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

void FreeGpuTimeline::add_free_now(NodeId node, int change)
{
  const int was = free_now_[node];
  free_now_[node] += change;
  auto& with_free = with_free_now_[static_cast<std::size_t>(topology_.pod_of(node))];
  if (was > 0 && free_now_[node] <= 0)
    with_free.erase(node);
  else if (was <= 0 && free_now_[node] > 0)
    with_free.insert(node);
}

void FreeGpuTimeline::remove_change(NodeId node, double at, int change)
{
  if (!kept(node, at))
    return;
  changed(node);
  if (at <= now_) {
    add_free_now(node, -change);
    return;
  }
  auto& changes = changes_[node];
  const auto it = std::find(std::lower_bound(changes.begin(), changes.end(), std::pair{at, change},
                                             [](const auto& a, const auto& b) { return a.first < b.first; }),
                            changes.end(), std::pair{at, change});
  if (it == changes.end() || it->first != at)
    throw std::logic_error("FreeGpuTimeline: taking back a change it was never given");
  changes.erase(it);
}

void FreeGpuTimeline::for_parts(const Allocation& allocation, std::optional<double> from, double until,
                                void (FreeGpuTimeline::*change)(NodeId, double, int))
{
  for (const auto& part : allocation.parts) {
    if (from)
      (this->*change)(part.node, *from, -part.gpus);
    (this->*change)(part.node, until, part.gpus);
  }
}

void FreeGpuTimeline::release(const Allocation& allocation, double at)
{
  for_parts(allocation, std::nullopt, at, &FreeGpuTimeline::add_change);
}

void FreeGpuTimeline::hold(const Allocation& allocation, double from, double until)
{
  for_parts(allocation, from, until, &FreeGpuTimeline::add_change);
}

void FreeGpuTimeline::take_back(const Allocation& allocation, double at)
{
  for_parts(allocation, std::nullopt, at, &FreeGpuTimeline::remove_change);
}

void FreeGpuTimeline::unhold(const Allocation& allocation, double from, double until)
{
  for_parts(allocation, from, until, &FreeGpuTimeline::remove_change);
}

void FreeGpuTimeline::advance_to(double now)
{
  now_ = std::max(now_, now); // stretches that began before are read as beginning now
  for (NodeId node = 0; node < changes_.size(); ++node) {
    auto& changes = changes_[node];
    auto due = changes.begin();
    for (; due != changes.end() && due->first <= now_; ++due)
      add_free_now(node, due->second);
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

bool FreeGpuTimeline::node_fits_before(NodeId node, int gpus, double duration_s, double before,
                                       HeldSpan ignored) const
{
  constexpr double kRoundingRoom_s = 1e-6;
  const int pod = topology_.pod_of(node);
  const int node_gpus = pod_spec(pod).gpus_per_node;
  const int need = job_shape(gpus, node_gpus).whole_nodes ? node_gpus : gpus;
  const auto& indexed = at_least_[static_cast<std::size_t>(pod)];
  const bool level_kept = need == node_gpus || indexed[static_cast<std::size_t>(need - 1)];
  if (ignored.gpus == 0 && level_kept) {
    // The level is kept: its stretches, brought up to date, say it.
    refresh(pod);
    const auto& known = stretches_[node];
    for (auto it = std::lower_bound(known.begin(), known.end(), need,
                                    [](const LevelStretch& s, int level) { return s.level < level; });
         it != known.end() && it->level == need && std::max(it->from, now_) < before; ++it)
      if (it->to + kRoundingRoom_s >= std::max(it->from, now_) + duration_s)
        return true;
    return false;
  }
  // Otherwise from the node's changes.
  int free = free_now_[node];
  std::optional<double> open; // since when `need` GPUs are free
  if (free >= need)
    open = now_;
  bool taken_ignored = ignored.gpus == 0, given_ignored = ignored.gpus == 0;
  const auto& changes = changes_[node];
  for (std::size_t next = 0; next < changes.size();) {
    const double at = changes[next].first;
    if (open && at + kRoundingRoom_s >= *open + duration_s)
      return true;
    if (!open && at >= before)
      return false;
    for (; next < changes.size() && changes[next].first == at; ++next) {
      const int change = changes[next].second;
      if (!taken_ignored && at == ignored.from && change == -ignored.gpus)
        taken_ignored = true;
      else if (!given_ignored && at == ignored.until && change == ignored.gpus)
        given_ignored = true;
      else
        free += change;
    }
    if (free < need)
      open.reset();
    else if (!open && at < before)
      open = at;
  }
  return open.has_value(); // free for ever from then
}

int FreeGpuTimeline::most_wholly_free_before(int pod, double duration_s, double before,
                                             const Allocation* taken_off) const
{
  const WholeFreeStretches& stretches = whole_free(pod);
  if (!taken_off)
    return stretches.most_at_once(duration_s, now_, before);
  const NodeId first = topology_.first_node_of_pod(pod);
  auto& marks = taken_off_scratch_;
  marks.assign(static_cast<std::size_t>(end_of_pod(pod) - first), 0);
  for (const Allocation::Part& part : taken_off->parts)
    if (part.node >= first && part.node < end_of_pod(pod))
      marks[part.node - first] = 1;
  return stretches.most_at_once(duration_s, now_, before, marks);
}

std::optional<FreeGpuTimeline::Slot> FreeGpuTimeline::earliest_in_node(int pod, int gpus, double duration_s) const
{
  // The tightest fit: fewest GPUs free over the window, then the lowest node.
  std::optional<Slot> best;
  int best_free = 0;
  const auto consider = [&](NodeId node, double start) {
    const int lowest = min_free(node, start, start + duration_s);
    if (lowest >= gpus && (!best || lowest < best_free)) {
      best = Slot{start, Allocation{{{node, gpus}}}};
      best_free = lowest;
    }
  };
  // Now, on a node with the GPUs free now.
  for (const NodeId node : with_free_now_[static_cast<std::size_t>(pod)])
    if (free_now_[node] >= gpus)
      consider(node, now_);
  if (best)
    return best;
  // Later, where a stretch with the GPUs free, long enough, first begins: a node's earliest fit
  // is the start of such a stretch.
  const auto starts = at_least(pod, gpus).earliest_after(now_, duration_s);
  if (starts)
    for (const NodeId node : starts->nodes)
      consider(node, starts->at);
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
    for (const NodeId node : with_free_now_[static_cast<std::size_t>(pod)]) {
      if (free_now_[node] < shape.gpus_per_node)
        continue;
      if (!shape.whole_nodes && min_free(node, now_, now_ + duration_s) >= gpus)
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
