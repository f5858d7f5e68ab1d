#include "sim/policies/QueueScheduler.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

QueueScheduler::QueueScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement)
    : mirror_(topology), placement_(std::move(placement))
{
  for (const auto& pod : topology.spec().pods)
    node_gpus_ = std::max(node_gpus_, pod.gpus_per_node);
  for (const auto& pod : topology.spec().pods)
    uniform_nodes_ = uniform_nodes_ && pod.gpus_per_node == node_gpus_;
}

Decisions QueueScheduler::decide(const ClusterView& view, const std::vector<SchedulerEvent>& events)
{
  bool cluster_changed = false;
  for (const auto& event : events) {
    if (event.kind == EventKind::NodeDown || event.kind == EventKind::NodeUp)
      cluster_changed = true;
    if (event.kind == EventKind::JobSubmitted)
      on_queued(view, event.job);
    if (event.kind != EventKind::JobFinished && event.kind != EventKind::JobRequeued)
      continue;
    auto it = allocations_.find(event.job);
    if (it == allocations_.end())
      throw std::logic_error("scheduler told of the end of job " + std::to_string(event.job) + " it never started");
    if (event.kind == EventKind::JobRequeued)
      cluster_changed = true; // its allocation may have shrunk since: the mirror is rebuilt below
    else
      mirror_.give_back(it->second);
    allocations_.erase(it);
    on_finished(view, event.job);
    if (event.kind == EventKind::JobRequeued)
      on_queued(view, event.job);
  }
  if (cluster_changed)
    resync(view);
  Decisions decisions;
  if (view.queue().empty() || (mirror_.free_gpus_total() == 0 && !can_preempt()))
    return decisions;
  pending_ = &decisions;
  refresh_fit_bounds();
  schedule(view, events);
  pending_ = nullptr;
  return decisions;
}

void QueueScheduler::on_started(const ClusterView&, JobId) {}
void QueueScheduler::on_finished(const ClusterView&, JobId) {}
void QueueScheduler::on_queued(const ClusterView&, JobId) {}
void QueueScheduler::on_cluster_changed() {}

void QueueScheduler::resync(const ClusterView& view)
{
  mirror_ = view.cluster();
  for (auto& [job, allocation] : allocations_)
    allocation = view.running(job).allocation;
  on_cluster_changed();
}

bool QueueScheduler::try_start(const ClusterView& view, JobId job)
{
  const int gpus = view.job(job).gpus;
  if (!may_fit(gpus))
    return false;
  Allocation allocation = placement_->place(mirror_, gpus);
  if (allocation.empty())
    return false;
  start_on(view, job, std::move(allocation));
  return true;
}

void QueueScheduler::start_on(const ClusterView& view, JobId job, Allocation allocation)
{
  StartDecision decision;
  decision.job = job;
  decision.allocation = std::move(allocation);
  start_on(view, std::move(decision));
}

void QueueScheduler::start_on(const ClusterView& view, StartDecision decision)
{
  const JobId job = decision.job;
  mirror_.take(decision.allocation);
  allocations_.emplace(job, decision.allocation);
  pending_->starts.push_back(std::move(decision));
  refresh_fit_bounds();
  on_started(view, job);
}

void QueueScheduler::preempt(const ClusterView& view, JobId job)
{
  const auto it = allocations_.find(job);
  if (it == allocations_.end() || !view.preemptible(job))
    throw std::logic_error("scheduler preempted job " + std::to_string(job) + ", which it may not preempt now");
  mirror_.give_back(it->second);
  allocations_.erase(it);
  pending_->preempts.push_back(job);
  refresh_fit_bounds();
  on_finished(view, job);
  on_queued(view, job);
}

std::size_t QueueScheduler::start_by_preempting(const ClusterView& view, JobId job, const std::vector<JobId>& victims)
{
  // The fewest victims that make room, found on the cheap capacity counts; the placement policy
  // then picks the nodes on a copy of the mirror without them.
  const int gpus = view.job(job).gpus;
  CapacityProfile room = mirror_.capacity();
  std::size_t taken = 0;
  while (taken < victims.size() && !room.fits(gpus))
    room.give_back(allocations_.at(victims[taken++]));
  if (taken == 0 || !room.fits(gpus))
    return 0;
  ClusterState trial = mirror_;
  for (std::size_t k = 0; k < taken; ++k)
    trial.give_back(allocations_.at(victims[k]));
  Allocation allocation = placement_->place(trial, gpus);
  if (allocation.empty())
    return 0;
  for (std::size_t k = 0; k < taken; ++k)
    preempt(view, victims[k]);
  start_on(view, job, std::move(allocation));
  return taken;
}

void QueueScheduler::wake_at(double time)
{
  pending_->wake_at = std::min(pending_->wake_at, time);
}

bool QueueScheduler::may_fit(int gpus) const
{
  if (!uniform_nodes_)
    return true; // the bounds below assume one node size; let placement answer
  if (gpus <= node_gpus_)
    return gpus <= largest_partial_;
  return (gpus + node_gpus_ - 1) / node_gpus_ <= largest_whole_;
}

void QueueScheduler::refresh_fit_bounds()
{
  largest_partial_ = 0;
  largest_whole_ = 0;
  const auto& pods = mirror_.topology().spec().pods;
  for (int pod = 0; pod < static_cast<int>(pods.size()); ++pod) {
    const int g = pods[pod].gpus_per_node;
    for (int f = g; f > largest_partial_; --f)
      if (mirror_.nodes_with_free(pod, f) > 0) {
        largest_partial_ = f;
        break;
      }
    largest_whole_ = std::max(largest_whole_, mirror_.nodes_with_free(pod, g));
  }
}

} // namespace acmesim
