#include "sim/run/JobRecovery.hpp"

#include <stdexcept>

namespace acmesim {

JobRecovery::JobRecovery(RunCore core, TrainingJobs& training, NodeService& nodes, JobQueue& queue,
                         const RecoveryPolicy* policy, const FailureSpec* failures)
    : core_(core), training_(training), nodes_(nodes), queue_(queue), policy_(policy), failures_(failures)
{
}

void JobRecovery::interrupt(JobId id, FailureCategory category)
{
  const JobPhase phase = core_.holders.phase(id);
  if (phase == JobPhase::Detecting || phase == JobPhase::WaitingForPerson)
    return; // already failed: this failure only takes more of its nodes
  if (!policy_ || !failures_)
    throw std::logic_error("a failure in a run set up without a recovery policy");
  core_.events.publish(AttemptEnded{core_.now(), id, id, HoldEnd::Interrupted, false});
  training_.interrupt(id, LossCause::Failure);
  Recovery& r = recovering_[id];
  ++r.interruptions;
  r.detected = false;
  r.give_up = r.interruptions > policy_->max_restarts();
  core_.holders.enter(id, JobPhase::Detecting, id);
  core_.holders.arm(id, core_.now() + failures_->detection_s[static_cast<std::size_t>(category)]);
}

void JobRecovery::on_timer(JobId id)
{
  Recovery& r = recovering_.at(id);
  const double now = core_.now();
  if (r.give_up) {
    core_.events.publish(JobGivenUp{now, id, training_.committed_s(id)});
    training_.finish(id, HoldEnd::GivenUp);
    return;
  }
  const bool detecting = core_.holders.phase(id) == JobPhase::Detecting;
  if (detecting && policy_->waits_for_person()) {
    core_.holders.enter(id, JobPhase::WaitingForPerson, id);
    core_.holders.arm(id, now + policy_->resubmit_delay(now));
    return;
  }
  if (detecting && !r.detected) {
    // Automatic diagnosis follows detection: still counted as detection.
    r.detected = true;
    const double diagnosis = policy_->resubmit_delay(now);
    if (diagnosis > 0) {
      core_.holders.arm(id, now + diagnosis);
      return;
    }
  }
  if (!policy_->waits_for_person() && swap_in_spares(id))
    return;
  resubmit(id);
}

bool JobRecovery::swap_in_spares(JobId id)
{
  const Allocation& allocation = core_.holders.allocation(id);
  if (allocation.empty())
    return false; // every node lost: nothing to restart in place
  const NodeId first = allocation.parts.front().node;
  const int pod = core_.topology.pod_of(first);
  const JobShape shape = job_shape(core_.jobs.job(id).gpus, core_.topology.gpus_of(first));
  const int missing = shape.nodes - allocation.node_count();
  if (missing > nodes_.spares_in_pool(pod))
    return false;
  core_.events.publish(AttemptEnded{core_.now(), id, id, HoldEnd::RestartedInPlace, false});
  for (NodeId spare : nodes_.spares(pod, missing)) {
    nodes_.put_spare_in_service(spare);
    core_.holders.add_node(id, Allocation::Part{spare, shape.gpus_per_node});
  }
  core_.holders.enter(id, JobPhase::Starting, id); // restarts in place: its nodes are whole again
  training_.begin(id);
  return true;
}

void JobRecovery::resubmit(JobId id)
{
  core_.events.publish(AttemptEnded{core_.now(), id, id, HoldEnd::Requeued, false});
  requeue(id);
  core_.inbox.post_job(EventKind::JobRequeued, id);
}

void JobRecovery::preempt(JobId id)
{
  if (!preemptible(core_.holders.phase(id)))
    throw std::logic_error("scheduler preempted job " + core_.jobs.job(id).name + ", which is not preemptible now");
  core_.events.publish(AttemptEnded{core_.now(), id, id, HoldEnd::Preempted, false});
  training_.interrupt(id, LossCause::Preemption);
  requeue(id);
}

void JobRecovery::requeue(JobId id)
{
  core_.holders.release(id, JobPhase::Queued, id);
  core_.jobs.requeued(id);
  queue_.enqueue(id);
}

} // namespace acmesim
