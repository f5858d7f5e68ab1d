#include "sim/engine/RunState.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace acmesim {

RunState::RunState(const Topology& topology, const Workload& workload, Scheduler& scheduler)
    : topology_(&topology)
    , workload_(&workload)
    , scheduler_(&scheduler)
    , cluster_(topology)
    , ledger_(topology.total_gpus())
    , records_(workload.jobs.size())
{
  for (const auto& pod : topology.spec().pods)
    largest_fit_ = std::max(largest_fit_, pod.nodes * pod.gpus_per_node);
}

double RunState::next_event_time() const
{
  double t = std::numeric_limits<double>::infinity();
  if (next_arrival_ < workload_->jobs.size())
    t = workload_->jobs[next_arrival_].submit_s;
  if (!ends_.empty())
    t = std::min(t, ends_.top().first);
  return t;
}

void RunState::process_instant(double now)
{
  if (now < now_)
    throw std::logic_error("time went back from " + std::to_string(now_) + " to " + std::to_string(now));
  now_ = now;
  ledger_.advance_to(now);
  ++counters_.instants;

  std::vector<SchedulerEvent> events;
  finish_jobs(events);
  submit_jobs(events);
  if (events.empty())
    return;
  ++counters_.scheduler_calls;
  apply(scheduler_->decide(*this, events));
  counters_.max_queue_length = std::max(counters_.max_queue_length, queue_.size());
}

void RunState::finish_jobs(std::vector<SchedulerEvent>& events)
{
  while (!ends_.empty() && ends_.top().first == now_) {
    const JobId id = ends_.top().second;
    ends_.pop();
    JobRecord& record = records_[id];
    record.outcome = JobOutcome::Ended;
    record.end_s = now_;
    ++ended_;
    const Job& j = job(id);
    if (j.cpu_only())
      continue; // CPU jobs hold no GPUs and are not the GPU scheduler's business
    cluster_.give_back(record.allocation);
    ledger_.move(GpuState::Busy, GpuState::Idle, j.gpus);
    ledger_.move(GpuState::Stranded, GpuState::Idle, record.allocation.gpus_held() - j.gpus);
    events.push_back({EventKind::JobFinished, now_, id});
  }
}

RunningJob RunState::running(JobId id) const
{
  // Derived from the job's record: the engine keeps no second copy of running allocations.
  const JobRecord& record = records_.at(id);
  if (record.outcome != JobOutcome::Running || job(id).cpu_only())
    throw std::logic_error("job " + std::to_string(id) + " is not a running GPU job");
  return RunningJob{id, record.start_s, record.allocation};
}

void RunState::submit_jobs(std::vector<SchedulerEvent>& events)
{
  const auto& jobs = workload_->jobs;
  for (; next_arrival_ < jobs.size() && jobs[next_arrival_].submit_s == now_; ++next_arrival_) {
    const Job& j = jobs[next_arrival_];
    JobRecord& record = records_[j.id];
    if (j.cpu_only()) {
      // CPU capacity is not modelled: a CPU-only job starts at submission.
      ++counters_.cpu_only_jobs;
      record.outcome = JobOutcome::Running;
      record.start_s = now_;
      ends_.emplace(now_ + j.duration_s, j.id);
      continue;
    }
    if (j.gpus > largest_fit_) {
      ++counters_.rejected_jobs;
      record.outcome = JobOutcome::Rejected;
      continue;
    }
    queue_.insert(j.id);
    events.push_back({EventKind::JobSubmitted, now_, j.id});
  }
}

JobShape RunState::checked_shape(const Job& j, const Allocation& allocation) const
{
  // A policy written by a user may get this wrong: refuse anything but the job's shape on
  // distinct nodes of one pod.
  const auto wrong = [&](const std::string& why) {
    return std::logic_error("scheduler gave job " + j.name + " an allocation " + why);
  };
  if (allocation.empty())
    throw wrong("with no nodes");
  const NodeId first = allocation.parts.front().node;
  if (first >= topology_->node_count())
    throw wrong("on a node that does not exist");
  const JobShape shape = job_shape(j.gpus, topology_->gpus_of(first));
  if (allocation.node_count() != shape.nodes)
    throw wrong("of " + std::to_string(allocation.node_count()) + " nodes instead of " + std::to_string(shape.nodes));
  for (std::size_t i = 0; i < allocation.parts.size(); ++i) {
    const auto& part = allocation.parts[i];
    if (part.node >= topology_->node_count() || topology_->pod_of(part.node) != topology_->pod_of(first))
      throw wrong("spanning pods");
    if (part.gpus != shape.gpus_per_node)
      throw wrong("of " + std::to_string(part.gpus) + " GPUs on a node instead of " +
                  std::to_string(shape.gpus_per_node));
    if (i > 0 && part.node <= allocation.parts[i - 1].node)
      throw wrong("with nodes repeated or out of order");
  }
  return shape;
}

void RunState::apply(const Decisions& decisions)
{
  for (const auto& start : decisions.starts) {
    if (queue_.erase(start.job) == 0)
      throw std::logic_error("scheduler started job " + std::to_string(start.job) + ", which is not queued");
    const Job& j = job(start.job);
    const JobShape shape = checked_shape(j, start.allocation);
    cluster_.take(start.allocation); // throws if the GPUs are not free
    ledger_.move(GpuState::Idle, GpuState::Busy, j.gpus);
    ledger_.move(GpuState::Idle, GpuState::Stranded, shape.gpus_held() - j.gpus);
    JobRecord& record = records_[start.job];
    record.outcome = JobOutcome::Running;
    record.start_s = now_;
    record.allocation = start.allocation;
    ends_.emplace(now_ + j.duration_s, start.job);
  }
}

} // namespace acmesim
