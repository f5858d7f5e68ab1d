// RunState, part 3: failures and what follows them — interrupted jobs, detection, recovery by
// the policy (a person, automatic restart, hot spares), nodes out of service and repairs.
#include "sim/engine/RunState.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

void RunState::init_spares()
{
  const int spares = setup_.recovery ? setup_.recovery->spare_nodes_per_pod() : 0;
  if (spares <= 0)
    return;
  // The last nodes of each pod are the initial hot spares.
  for (std::size_t pod = 0; pod < topology_->pod_count(); ++pod) {
    const int nodes = topology_->spec().pods[pod].nodes;
    if (spares >= nodes)
      throw std::logic_error("recovery keeps every node of a pod as a spare (the loader should refuse it)");
    spares_wanted_[pod] = spares;
    spares_in_pool_[pod] = spares;
    const NodeId first = topology_->first_node_of_pod(static_cast<int>(pod));
    for (NodeId node = first + nodes - spares; node < first + nodes; ++node) {
      in_spare_pool_[node] = true;
      cluster_.set_in_service(node, false);
      ledger_.move(GpuState::Idle, GpuState::Spare, topology_->gpus_of(node));
      if (timeline_)
        timeline_->node_health(now_, node, NodeHealth::Spare);
      initial_events_.push_back({EventKind::NodeDown, 0, 0, node}); // the scheduler learns at its first call
    }
  }
}

bool RunState::component_down(Component c, std::uint32_t target) const
{
  if (c == Component::Storage)
    return storage_down_;
  if (c == Component::LeafSwitch)
    return leaf_down_[target];
  return down_reasons_[target] > 0;
}

void RunState::apply_failures(std::vector<SchedulerEvent>& events)
{
  if (!setup_.failures)
    return;
  while (work_remains() && setup_.failures->next_time() <= now_)
    apply_failure(setup_.failures->pop(), events);
}

void RunState::apply_failure(const FailureEvent& e, std::vector<SchedulerEvent>& events)
{
  if (e.excess && cured_[e.target]) {
    ++counters_.excess_failures_cured;
    return;
  }
  if (component_down(e.component, e.target)) {
    ++counters_.failures_on_down_components;
    return;
  }
  ++counters_.failures_applied;
  applied_failures_.push_back(e);
  const RecoveryPolicy& recovery = *setup_.recovery;
  auto schedule_repair = [&](double repair_s, bool replacement) {
    const std::uint64_t seq = ++next_seq_;
    repairs_.emplace(seq, Repair{e.component, e.target, replacement});
    repair_timers_.push({now_ + repair_s, e.target, seq});
    setup_.transfers->set_component_up(e.component, e.target, false);
  };

  if (e.component == Component::Storage) {
    // Jobs moving checkpoint data fail; later transfers wait for the repair.
    storage_down_ = true;
    std::vector<JobId> victims;
    for (const auto& [tid, id] : transfers_)
      victims.push_back(id);
    std::sort(victims.begin(), victims.end());
    victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
    for (JobId id : victims)
      interrupt(id, e.category, events);
    schedule_repair(e.repair_s, e.replacement);
    return;
  }

  std::vector<NodeId> nodes;
  if (e.component == Component::LeafSwitch)
    nodes = topology_->nodes_of_leaf(e.target);
  else
    nodes = {e.target};
  std::vector<JobId> victims;
  for (NodeId node : nodes)
    victims.insert(victims.end(), jobs_on_node_[node].begin(), jobs_on_node_[node].end());
  std::sort(victims.begin(), victims.end());
  victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
  for (JobId id : victims)
    interrupt(id, e.category, events);

  if (e.component == Component::LeafSwitch) {
    leaf_down_[e.target] = true;
    for (NodeId node : nodes)
      if (down_reasons_[node]++ == 0)
        take_out_of_service(node, events);
    schedule_repair(e.repair_s, e.replacement);
    return;
  }
  // A node that crashed is out whatever the policy; a node that still answers leaves service
  // only if diagnosis finds it (otherwise it stays in the pool, fault and all).
  const NodeId node = e.target;
  if (e.category != FailureCategory::NodeFailure && !recovery.diagnoses())
    return;
  double repair_s = e.repair_s;
  bool replacement = e.replacement;
  if (recovery.diagnoses()) {
    auto& recent = recent_failures_[node];
    recent.push_back(now_);
    while (recent.front() < now_ - recovery.escalation_window_s())
      recent.pop_front();
    if (!replacement && recovery.escalates(recent)) {
      repair_s = std::max(repair_s, recovery.escalation_repair_s());
      replacement = true;
      ++counters_.escalations;
      recent.clear();
    }
  }
  if (down_reasons_[node]++ == 0)
    take_out_of_service(node, events);
  schedule_repair(repair_s, replacement);
}

void RunState::interrupt(JobId id, FailureCategory category, std::vector<SchedulerEvent>& events)
{
  ActiveJob& a = active_.at(id);
  if (a.phase == JobPhase::Detecting || a.phase == JobPhase::WaitingForPerson)
    return; // already failed: this failure only takes more of its nodes
  const Job& j = job(id);
  if (timeline_)
    timeline_->attempt_interrupted(now_, id);
  if (a.phase == JobPhase::Training)
    a.progress_s = std::min(a.progress_s + (now_ - a.phase_start_s), j.duration_s);
  // Everything trained since the latest completed checkpoint is lost and will be recomputed.
  // That training ended now, or when the checkpoint under way began; the ledger's series moves
  // it over that much time before (exact unless asynchronous snapshots paused it in between).
  const double lost = a.progress_s - a.committed_s;
  const double trained_until = a.phase == JobPhase::Training ? now_ : a.phase_start_s;
  ledger_.reclassify(GpuState::Busy, GpuState::LostWork, lost * std::min(j.gpus, a.held_gpus), trained_until - lost,
                     trained_until);
  JobFaultStats& s = stats(id);
  s.lost_s += lost;
  ++s.interruptions;
  ++counters_.interruptions;
  drop_transfers(a);
  a.progress_s = a.committed_s;
  a.next_checkpoint_s = a.committed_s + a.interval_s;
  a.detected = false;
  a.give_up = s.interruptions > setup_.recovery->max_restarts();
  enter(id, a, JobPhase::Detecting, events);
  arm(id, a, now_ + setup_.failure_spec->detection_s[static_cast<std::size_t>(category)]);
}

void RunState::take_out_of_service(NodeId node, std::vector<SchedulerEvent>& events)
{
  const int gpus = topology_->gpus_of(node);
  // A spare is already out of service for the scheduler: it hears of it again only with NodeUp.
  const bool was_in_service = !in_spare_pool_[node];
  if (in_spare_pool_[node]) {
    in_spare_pool_[node] = false;
    --spares_in_pool_[topology_->pod_of(node)];
    ledger_.move(GpuState::Spare, GpuState::Down, gpus);
  } else {
    ledger_.move(GpuState::Idle, GpuState::Down, cluster_.free_gpus(node));
  }
  if (timeline_)
    timeline_->node_health(now_, node, NodeHealth::Down, &applied_failures_.back());
  // Jobs on the node were interrupted just before: they lose their part of it.
  auto holders = jobs_on_node_[node];
  std::sort(holders.begin(), holders.end());
  for (JobId id : holders) {
    ActiveJob& a = active_.at(id);
    auto& parts = records_[id].allocation.parts;
    const auto part =
        std::find_if(parts.begin(), parts.end(), [&](const Allocation::Part& p) { return p.node == node; });
    ledger_.move(ledger_state(a.phase), GpuState::Down, part->gpus);
    if (timeline_)
      timeline_->give_back(now_, id, node);
    a.held_gpus -= part->gpus;
    cluster_.give_back(Allocation{{*part}});
    parts.erase(part);
  }
  jobs_on_node_[node].clear();
  cluster_.set_in_service(node, false);
  if (was_in_service)
    events.push_back({EventKind::NodeDown, now_, 0, node});
}

void RunState::node_back(NodeId node, std::vector<SchedulerEvent>& events)
{
  const int pod = topology_->pod_of(node);
  const int gpus = topology_->gpus_of(node);
  if (spares_in_pool_[pod] < spares_wanted_[pod]) {
    // A repaired node refills the spare pool before it returns to scheduling.
    in_spare_pool_[node] = true;
    ++spares_in_pool_[pod];
    ledger_.move(GpuState::Down, GpuState::Spare, gpus);
    if (timeline_)
      timeline_->node_health(now_, node, NodeHealth::Spare);
    return;
  }
  ledger_.move(GpuState::Down, GpuState::Idle, gpus);
  if (timeline_)
    timeline_->node_health(now_, node, NodeHealth::InService);
  cluster_.set_in_service(node, true);
  events.push_back({EventKind::NodeUp, now_, 0, node});
}

void RunState::apply_repairs(std::vector<SchedulerEvent>& events)
{
  while (!repair_timers_.empty() && repair_timers_.top().time <= now_) {
    const auto it = repairs_.find(repair_timers_.top().seq);
    repair_timers_.pop();
    const Repair r = it->second;
    repairs_.erase(it);
    setup_.transfers->set_component_up(r.component, r.target, true);
    if (r.component == Component::Storage) {
      storage_down_ = false;
      storage_back();
      continue;
    }
    std::vector<NodeId> nodes;
    if (r.component == Component::LeafSwitch) {
      leaf_down_[r.target] = false;
      nodes = topology_->nodes_of_leaf(r.target);
    } else {
      if (r.replacement)
        cured_[r.target] = true; // a replaced part ends a lemon's excess failures
      nodes = {r.target};
    }
    for (NodeId node : nodes)
      if (--down_reasons_[node] == 0)
        node_back(node, events);
  }
}

void RunState::storage_back()
{
  std::vector<JobId> waiting;
  for (const auto& [id, a] : active_)
    if (a.waits_for_storage)
      waiting.push_back(id);
  std::sort(waiting.begin(), waiting.end());
  for (JobId id : waiting) {
    ActiveJob& a = active_.at(id);
    // A write or load blocks its phase; an upload runs under training.
    start_transfer(id, a, a.phase == JobPhase::Training || a.phase == JobPhase::AwaitingUpload);
  }
}

void RunState::detection_over(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  const RecoveryPolicy& recovery = *setup_.recovery;
  if (a.give_up) {
    stats(id).gave_up = true;
    stats(id).useful_s = a.committed_s;
    ++counters_.jobs_given_up;
    finish_job(id, events);
    return;
  }
  if (a.phase == JobPhase::Detecting && recovery.waits_for_person()) {
    enter(id, a, JobPhase::WaitingForPerson, events);
    arm(id, a, now_ + recovery.resubmit_delay(now_));
    return;
  }
  if (a.phase == JobPhase::Detecting && !a.detected) {
    // Automatic diagnosis follows detection: still counted as detection.
    a.detected = true;
    const double diagnosis = recovery.resubmit_delay(now_);
    if (diagnosis > 0) {
      arm(id, a, now_ + diagnosis);
      return;
    }
  }
  if (!recovery.waits_for_person() && swap_in_spares(id, a, events))
    return;
  resubmit(id, a, events);
}

bool RunState::swap_in_spares(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  const Job& j = job(id);
  Allocation& allocation = records_[id].allocation;
  if (allocation.empty())
    return false; // every node lost: nothing to restart in place
  const int pod = topology_->pod_of(allocation.parts.front().node);
  const JobShape shape = job_shape(j.gpus, topology_->gpus_of(allocation.parts.front().node));
  const int missing = shape.nodes - allocation.node_count();
  if (missing > spares_in_pool_[pod])
    return false;
  if (timeline_)
    timeline_->stretch_ended(now_, id, HoldEnd::RestartedInPlace);
  // Lowest-numbered spares first, so the choice is reproducible.
  const NodeId first = topology_->first_node_of_pod(pod);
  int taken = 0;
  for (NodeId node = first; taken < missing; ++node) {
    if (!in_spare_pool_[node])
      continue;
    in_spare_pool_[node] = false;
    --spares_in_pool_[pod];
    cluster_.set_in_service(node, true);
    const Allocation::Part part{node, shape.gpus_per_node};
    cluster_.take(Allocation{{part}});
    allocation.parts.push_back(part);
    jobs_on_node_[node].push_back(id);
    if (timeline_) {
      timeline_->node_health(now_, node, NodeHealth::InService);
      timeline_->take(now_, id, {part});
    }
    ledger_.move(GpuState::Spare, ledger_state(a.phase), topology_->gpus_of(node));
    a.held_gpus += topology_->gpus_of(node);
    events.push_back({EventKind::NodeUp, now_, 0, node});
    ++counters_.spare_swaps;
    ++taken;
  }
  std::sort(allocation.parts.begin(), allocation.parts.end(),
            [](const Allocation::Part& x, const Allocation::Part& y) { return x.node < y.node; });
  begin_job(id, events); // restarts in place: its nodes are whole again
  return true;
}

void RunState::resubmit(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  // The job gives back what it still holds and queues again, ahead of later submissions
  // (the queue is ordered by job id).
  leave_phase(id, a);
  move_held(a, job(id), ledger_state(a.phase), GpuState::Idle);
  if (timeline_) {
    timeline_->stretch_ended(now_, id, HoldEnd::Requeued);
    timeline_->give_back_all(id);
  }
  JobRecord& record = records_[id];
  for (const auto& part : record.allocation.parts) {
    auto& on_node = jobs_on_node_[part.node];
    on_node.erase(std::find(on_node.begin(), on_node.end(), id));
  }
  cluster_.give_back(record.allocation);
  record.allocation.parts.clear();
  record.outcome = JobOutcome::Pending;
  a.phase = JobPhase::Starting;
  a.phase_start_s = now_;
  a.held_gpus = 0;
  a.timer_seq = ++next_seq_;
  queue_.insert(id);
  events.push_back({EventKind::JobRequeued, now_, id, 0});
}

} // namespace acmesim
