#include "sim/run/TrainingJobs.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

TrainingJobs::TrainingJobs(RunCore core, TransferTable& transfers, TrainingSpeeds& speeds, TrainingSetup setup)
    : core_(core), transfers_(transfers), speeds_(speeds), setup_(std::move(setup))
{
}

bool TrainingJobs::checkpoints(const Job& job) const
{
  const CheckpointSpec* spec = setup_.checkpoint;
  return spec && spec->covers(job.type);
}

void TrainingJobs::begin(JobId id)
{
  core_.events.publish(AttemptStarted{core_.now(), id, id, false});
  const auto [it, first] = state_.try_emplace(id);
  TrainingState& t = it->second;
  if (first) {
    if (checkpoints(core_.jobs.job(id)))
      plan(id, t);
    enter_training(id, t);
    return;
  }
  // A restart: health check, initialisation, then the latest checkpoint is read back.
  const double cost = setup_.health_check_s + (t.plan ? setup_.checkpoint->init_s : 0);
  if (cost > 0) {
    core_.holders.arm(id, core_.now() + cost);
    return;
  }
  on_timer(id); // nothing to wait for: go on at once
}

void TrainingJobs::plan(JobId id, TrainingState& t)
{
  const Allocation& allocation = core_.holders.allocation(id);
  const int nodes = allocation.node_count();
  const int pod = core_.topology.pod_of(allocation.parts.front().node);
  const ClusterSpec& cluster = core_.topology.spec();
  // What a write alone really gets: the nominal path at the engine's lone-flow shares (92 to 97%),
  // so that Young's and Daly's delta is the write time the run will see.
  const double write_Bps = uncontended_storage_Bps(cluster.pods[static_cast<std::size_t>(pod)], cluster.storage, nodes,
                                                   transfers_.lone_flow_shares());
  const double failures_per_s = setup_.failure_rate ? setup_.failure_rate(pod, nodes) : 0;
  t.plan = plan_checkpoints(*setup_.checkpoint, core_.jobs.job(id).gpus, nodes, write_Bps, failures_per_s);
  t.next_checkpoint_s = t.plan->interval_s;
}

void TrainingJobs::enter_training(JobId id, TrainingState& t)
{
  core_.holders.enter(id, JobPhase::Training, id);
  t.since = core_.now();
  t.speed = speeds_.start(id);
  arm_training(id, t);
}

void TrainingJobs::arm_training(JobId id, const TrainingState& t)
{
  const double work = core_.jobs.job(id).duration_s;
  const double target = t.plan ? std::min(work, t.next_checkpoint_s) : work;
  core_.holders.arm(id, core_.now() + (target - t.progress_s) * t.speed.slowdown);
}

void TrainingJobs::account_training(JobId id, TrainingState& t)
{
  const double now = core_.now();
  if (speeds_.on()) {
    const Job& job = core_.jobs.job(id);
    const int gpus = std::min(job.gpus, core_.holders.allocation(id).gpus_held());
    core_.events.publish(TrainedAtSpeed{now, id, gpus, t.since, t.speed.slowdown, t.speed.ring_Bps});
  }
  t.progress_s = std::min(t.progress_s + (now - t.since) / t.speed.slowdown, core_.jobs.job(id).duration_s);
  t.since = now;
}

std::optional<JobCommunication> TrainingJobs::communication(JobId id) const
{
  const auto it = state_.find(id);
  return it == state_.end() ? std::nullopt : speeds_.communication(id, it->second.speed);
}

void TrainingJobs::network_changed()
{
  for (const auto& [id, speed] : speeds_.speeds()) {
    TrainingState& t = state_.at(id);
    if (speed.slowdown == t.speed.slowdown && speed.ring_Bps == t.speed.ring_Bps)
      continue;
    account_training(id, t);
    // A rate that changes inside the overlap window changes what the ring got, not the step.
    const bool slower_or_faster = speed.slowdown != t.speed.slowdown;
    if (slower_or_faster)
      core_.events.publish(SpeedChanged{core_.now(), id, t.speed.slowdown, speed.slowdown});
    t.speed = speed;
    if (slower_or_faster)
      arm_training(id, t);
  }
}

void TrainingJobs::on_timer(JobId id)
{
  TrainingState& t = state_.at(id);
  switch (core_.holders.phase(id)) {
    case JobPhase::Training: {
      account_training(id, t);
      // The target is reached exactly (the timer was armed for it).
      const double work = core_.jobs.job(id).duration_s;
      t.progress_s = t.plan ? std::min(work, t.next_checkpoint_s) : work;
      if (t.progress_s >= work) {
        finish(id, HoldEnd::Finished); // takes its ring off
      } else {
        speeds_.pause(id); // training goes on after the checkpoint, on the same nodes
        checkpoint_due(id, t);
      }
      return;
    }
    case JobPhase::Starting:
      if (t.plan && t.committed_s > 0) {
        core_.holders.enter(id, JobPhase::Loading, id);
        start_transfer(id, t, false);
      } else {
        enter_training(id, t);
      }
      return;
    case JobPhase::Snapshot:
      // The snapshot is in host memory: training goes on while it is uploaded.
      t.upload_progress_s = t.progress_s;
      t.next_checkpoint_s = t.progress_s + t.plan->interval_s;
      start_transfer(id, t, true);
      enter_training(id, t);
      return;
    default:
      break; // the other phases end with a transfer, or belong to recovery
  }
  throw std::logic_error("job " + core_.jobs.job(id).name + " got a training timer in a phase that has none");
}

void TrainingJobs::checkpoint_due(JobId id, TrainingState& t)
{
  if (setup_.checkpoint->mode == CheckpointMode::Sync) {
    core_.holders.enter(id, JobPhase::Writing, id);
    start_transfer(id, t, false);
    return;
  }
  if (t.upload || (t.waits_for_storage && core_.holders.phase(id) == JobPhase::Training)) {
    // The previous upload still runs: the next snapshot waits for it (host memory holds one).
    core_.holders.enter(id, JobPhase::AwaitingUpload, id);
    return;
  }
  core_.holders.enter(id, JobPhase::Snapshot, id);
  core_.holders.arm(id, core_.now() + t.plan->snapshot_s);
}

void TrainingJobs::start_transfer(JobId id, TrainingState& t, bool upload)
{
  if (!transfers_.storage_up()) {
    t.waits_for_storage = true; // started by storage_back()
    return;
  }
  t.waits_for_storage = false;
  const Allocation& allocation = core_.holders.allocation(id);
  const double shard_bytes = t.plan->bytes / std::max(1, allocation.node_count());
  const auto direction = core_.holders.phase(id) == JobPhase::Loading ? TransferDirection::FromStorage
                                                                      : TransferDirection::ToStorage;
  const TransferId transfer =
      transfers_.start(TransferOwner{TransferOwner::Kind::Job, id}, allocation, shard_bytes, direction);
  (upload ? t.upload : t.transfer) = transfer;
}

void TrainingJobs::drop_transfers(TrainingState& t)
{
  for (auto* transfer : {&t.transfer, &t.upload})
    if (*transfer) {
      transfers_.cancel(**transfer);
      transfer->reset();
    }
  t.waits_for_storage = false;
}

void TrainingJobs::commit(JobId id, TrainingState& t)
{
  ++t.checkpoints;
  core_.events.publish(CheckpointCommitted{core_.now(), id});
  if (setup_.on_checkpoint)
    setup_.on_checkpoint(id, t.checkpoints);
}

void TrainingJobs::transfer_done(JobId id, TransferId transfer)
{
  TrainingState& t = state_.at(id);
  if (t.upload == transfer) {
    t.upload.reset();
    t.committed_s = t.upload_progress_s;
    commit(id, t);
    if (core_.holders.phase(id) == JobPhase::AwaitingUpload) {
      core_.holders.enter(id, JobPhase::Snapshot, id);
      core_.holders.arm(id, core_.now() + t.plan->snapshot_s);
    }
  } else if (t.transfer == transfer) {
    t.transfer.reset();
    if (core_.holders.phase(id) == JobPhase::Writing) {
      t.committed_s = t.progress_s;
      t.next_checkpoint_s = t.progress_s + t.plan->interval_s;
      commit(id, t);
    }
    enter_training(id, t); // after a write or a load
  }
}

void TrainingJobs::interrupt(JobId id, LossCause cause)
{
  TrainingState& t = state_.at(id);
  const Job& job = core_.jobs.job(id);
  const double now = core_.now();
  const bool training = core_.holders.phase(id) == JobPhase::Training;
  if (training)
    account_training(id, t);
  speeds_.stop(id); // the job leaves these nodes, training or paused for a checkpoint
  // Everything trained since the latest completed checkpoint is lost and will be recomputed. That
  // training ended now, or when the checkpoint under way began.
  const double lost = t.progress_s - t.committed_s;
  const double trained_until = training ? now : core_.holders.phase_start(id);
  const int gpus = std::min(job.gpus, core_.holders.allocation(id).gpus_held());
  core_.events.publish(WorkLost{now, id, lost, gpus, trained_until - lost, trained_until, cause});
  drop_transfers(t);
  t.progress_s = t.committed_s;
  t.next_checkpoint_s = t.committed_s + (t.plan ? t.plan->interval_s : 0);
}

void TrainingJobs::finish(JobId id, HoldEnd how)
{
  core_.jobs.ended(id, core_.now());
  core_.events.publish(AttemptEnded{core_.now(), id, id, how, false});
  core_.holders.release(id, JobPhase::Ended, id);
  speeds_.stop(id); // its ring, if it trained to its end (an interruption took it off already)
  const auto it = state_.find(id);
  drop_transfers(it->second); // an upload may still run when training ends
  state_.erase(it);
  core_.inbox.post_job(EventKind::JobFinished, id);
}

void TrainingJobs::storage_back()
{
  std::vector<JobId> waiting;
  for (const auto& [id, t] : state_)
    if (t.waits_for_storage)
      waiting.push_back(id);
  std::sort(waiting.begin(), waiting.end());
  for (JobId id : waiting) {
    const JobPhase phase = core_.holders.phase(id);
    // A write or a load blocks its phase; an upload runs under training.
    start_transfer(id, state_.at(id), phase == JobPhase::Training || phase == JobPhase::AwaitingUpload);
  }
}

} // namespace acmesim
