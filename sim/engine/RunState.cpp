#include "sim/engine/RunState.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace acmesim {

RunState::RunState(const Topology& topology, const Workload& workload, Scheduler& scheduler, RunSetup setup)
    : topology_(&topology)
    , workload_(&workload)
    , scheduler_(&scheduler)
    , setup_(std::move(setup))
    , cluster_(topology)
    , ledger_(topology.total_gpus())
    , records_(workload.jobs.size())
    , base_jobs_(workload.jobs.size())
    , jobs_on_node_(topology.node_count())
    , down_reasons_(topology.node_count(), 0)
    , leaf_down_(topology.leaf_count(), false)
    , cured_(topology.node_count(), false)
    , in_spare_pool_(topology.node_count(), false)
    , spares_wanted_(topology.pod_count(), 0)
    , spares_in_pool_(topology.pod_count(), 0)
    , recent_failures_(topology.node_count())
{
  if (setup_.failures && (!setup_.recovery || !setup_.failure_spec || !setup_.transfers))
    throw std::logic_error("failures need a recovery policy, their spec and a transfer service");
  if (setup_.checkpoint && setup_.checkpoint->enabled && !setup_.transfers)
    throw std::logic_error("checkpoints need a transfer service");
  if (!workload.eval_chunks.empty() && (!setup_.transfers || !setup_.evaluation))
    throw std::logic_error("evaluation trials need a transfer service and their spec");
  if (setup_.utilisation_bin_s > 0)
    ledger_.enable_series(setup_.utilisation_bin_s);
  if (setup_.timeline)
    timeline_ = std::make_unique<RunTimeline>(topology);
  init_spares();
  for (double t : workload.eval_campaigns_s)
    campaigns_.push_back({t, -1, 0});
  for (std::size_t pod = 0; pod < topology.pod_count(); ++pod) {
    const auto& spec = topology.spec().pods[pod];
    largest_fit_ = std::max(largest_fit_, (spec.nodes - spares_wanted_[pod]) * spec.gpus_per_node);
  }
}

void RunState::prune_stale_timers() const
{
  while (!job_timers_.empty()) {
    const Timer& t = job_timers_.top();
    const auto it = active_.find(t.key);
    if (it != active_.end() && it->second.timer_seq == t.seq)
      return;
    job_timers_.pop();
  }
}

double RunState::next_event_time() const
{
  double t = std::numeric_limits<double>::infinity();
  if (next_arrival_ < workload_->jobs.size())
    t = workload_->jobs[next_arrival_].submit_s;
  prune_stale_timers();
  if (!job_timers_.empty())
    t = std::min(t, job_timers_.top().time);
  if (!cpu_work_.empty())
    t = std::min(t, cpu_work_.top().first);
  if (!pending_triggers_.empty())
    t = std::min(t, now_);
  // Failures and repairs matter only while some job has yet to end: the run stops with its
  // last job, not with the failure model's endless stream.
  if (work_remains()) {
    if (!repair_timers_.empty())
      t = std::min(t, repair_timers_.top().time);
    if (setup_.failures)
      t = std::min(t, std::max(now_, setup_.failures->next_time()));
  }
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
  for (auto& e : initial_events_)
    e.time = now_;
  events.swap(initial_events_);
  prune_stale_timers();
  while (!job_timers_.empty() && job_timers_.top().time <= now_) {
    const JobId id = job_timers_.top().key;
    job_timers_.pop();
    on_timer(id, events);
    prune_stale_timers();
  }
  finish_cpu_work();
  apply_repairs(events);
  apply_failures(events);
  launch_triggered_campaigns(events);
  submit_jobs(events);
  if (events.empty())
    return;
  // Delivery order (EventKind): by kind, then job or node id.
  std::stable_sort(events.begin(), events.end(), [](const SchedulerEvent& a, const SchedulerEvent& b) {
    const auto key = [](const SchedulerEvent& e) {
      const bool node_event = e.kind == EventKind::NodeDown || e.kind == EventKind::NodeUp;
      return std::make_pair(static_cast<int>(e.kind), node_event ? e.node : e.job);
    };
    return key(a) < key(b);
  });
  ++counters_.scheduler_calls;
  apply(scheduler_->decide(*this, events), events);
  counters_.max_queue_length = std::max(counters_.max_queue_length, queue_.size());
}

void RunState::record_end(JobId id)
{
  JobRecord& record = records_[id];
  record.outcome = JobOutcome::Ended;
  record.end_s = now_;
  ++ended_;
}

void RunState::finish_cpu_work()
{
  while (!cpu_work_.empty() && cpu_work_.top().first <= now_) {
    const JobId id = cpu_work_.top().second;
    cpu_work_.pop();
    record_end(id);
  }
}

void RunState::finish_job(JobId id, std::vector<SchedulerEvent>& events)
{
  record_end(id);
  const JobRecord& record = records_[id];
  const Job& j = job(id);
  const auto it = active_.find(id);
  if (timeline_) {
    timeline_->stretch_ended(now_, id, it->second.give_up ? HoldEnd::GivenUp : HoldEnd::Finished);
    timeline_->give_back_all(id);
  }
  leave_phase(id, it->second);
  move_held(it->second, j, ledger_state(it->second.phase), GpuState::Idle);
  drop_transfers(it->second); // an upload may still run when training ends
  active_.erase(it);
  for (const auto& part : record.allocation.parts) {
    auto& on_node = jobs_on_node_[part.node];
    on_node.erase(std::find(on_node.begin(), on_node.end(), id));
  }
  cluster_.give_back(record.allocation);
  events.push_back({EventKind::JobFinished, now_, id, 0});
}

RunningJob RunState::running(JobId id) const
{
  // Derived from the job's record: the engine keeps no second copy of running allocations. A
  // job holds an allocation while it is active and not queued again (running, recovering in
  // place, or leading a group of evaluation trials whose first trial has ended).
  const JobRecord& record = records_.at(id);
  if (!active_.count(id) || queue_.count(id))
    throw std::logic_error("job " + std::to_string(id) + " is not a running GPU job");
  return RunningJob{id, record.start_s, record.allocation};
}

const JobFaultStats* RunState::fault_stats(JobId id) const
{
  const auto it = fault_stats_.find(id);
  return it == fault_stats_.end() ? nullptr : &it->second;
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
      cpu_work_.emplace(now_ + j.duration_s, j.id);
      continue;
    }
    if (j.gpus > largest_fit_) {
      ++counters_.rejected_jobs;
      record.outcome = JobOutcome::Rejected;
      continue;
    }
    queue_.insert(j.id);
    events.push_back({EventKind::JobSubmitted, now_, j.id, 0});
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

void RunState::apply(const Decisions& decisions, std::vector<SchedulerEvent>& events)
{
  for (const auto& start : decisions.starts) {
    if (queue_.erase(start.job) == 0)
      throw std::logic_error("scheduler started job " + std::to_string(start.job) + ", which is not queued");
    const Job& j = job(start.job);
    checked_shape(j, start.allocation);
    cluster_.take(start.allocation); // throws if the GPUs are not free (or the node is out of service)
    JobRecord& record = records_[start.job];
    record.outcome = JobOutcome::Running;
    if (record.start_s < 0)
      record.start_s = now_;
    record.allocation = start.allocation;
    for (const auto& part : start.allocation.parts)
      jobs_on_node_[part.node].push_back(start.job);
    if (timeline_)
      timeline_->take(now_, start.job, start.allocation.parts);
    ledger_.move(GpuState::Idle, GpuState::Restart, start.allocation.gpus_held()); // begin_job sets the phase
    if (j.eval_trial()) {
      begin_trials(start);
      continue;
    }
    if (!start.then.empty() || start.local_model || start.metric_on_cpu)
      throw std::logic_error("scheduler gave evaluation options to job " + j.name + ", which is no trial");
    begin_job(start.job, events);
  }
}

} // namespace acmesim
