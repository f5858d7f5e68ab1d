// RunState, part 2: the phases of a GPU job (see ActiveJob.hpp) — training toward the next
// checkpoint or the end, synchronous and asynchronous checkpoints as storage flows, restarts.
#include "models/checkpoint/CheckpointMath.hpp"
#include "sim/engine/RunState.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace acmesim {

GpuState ledger_state(JobPhase phase)
{
  switch (phase) {
    case JobPhase::Training:
      return GpuState::Busy;
    case JobPhase::Starting:
    case JobPhase::Loading:
      return GpuState::Restart;
    case JobPhase::Snapshot:
    case JobPhase::Writing:
    case JobPhase::AwaitingUpload:
      return GpuState::Checkpoint;
    case JobPhase::Detecting:
      return GpuState::Detection;
    case JobPhase::WaitingForPerson:
      return GpuState::WaitingForPerson;
    case JobPhase::ModelLoad:
      return GpuState::ModelLoad;
    case JobPhase::Preprocess:
    case JobPhase::Metric:
      return GpuState::CpuWait;
    case JobPhase::Inference:
      return GpuState::Busy;
  }
  return GpuState::Busy;
}

void RunState::move_held(ActiveJob& a, const Job& j, GpuState from, GpuState to)
{
  if (from == to)
    return;
  // While training, the GPUs a job asked for are busy and the rest of its whole nodes stranded;
  // in every other phase all the GPUs it holds are in that phase's state.
  const int asked = std::min(j.gpus, a.held_gpus);
  const int rest = a.held_gpus - asked;
  if (from == GpuState::Busy) {
    ledger_.move(GpuState::Busy, to, asked);
    ledger_.move(GpuState::Stranded, to, rest);
  } else if (to == GpuState::Busy) {
    ledger_.move(from, GpuState::Busy, asked);
    ledger_.move(from, GpuState::Stranded, rest);
  } else {
    ledger_.move(from, to, a.held_gpus);
  }
}

void RunState::arm(JobId id, ActiveJob& a, double at)
{
  a.timer_seq = ++next_seq_;
  job_timers_.push({at, id, a.timer_seq});
}

void RunState::leave_phase(JobId id, ActiveJob& a)
{
  const double spent = now_ - a.phase_start_s;
  if (spent <= 0)
    return;
  switch (a.phase) {
    case JobPhase::Starting:
    case JobPhase::Loading:
      stats(id).restart_s += spent;
      break;
    case JobPhase::Snapshot:
    case JobPhase::Writing:
    case JobPhase::AwaitingUpload:
      stats(id).checkpoint_s += spent;
      break;
    case JobPhase::Detecting:
      stats(id).detection_s += spent;
      break;
    case JobPhase::WaitingForPerson:
      stats(id).waiting_s += spent;
      break;
    case JobPhase::Training:
      break; // progress is tracked in progress_s
    case JobPhase::ModelLoad:
      trial_times_[a.on_gpu].load_s += spent;
      break;
    case JobPhase::Preprocess:
      trial_times_[a.on_gpu].preprocess_s += spent;
      break;
    case JobPhase::Inference:
      trial_times_[a.on_gpu].inference_s += spent;
      break;
    case JobPhase::Metric:
      trial_times_[a.on_gpu].metric_s += spent;
      break;
  }
}

void RunState::enter(JobId id, ActiveJob& a, JobPhase phase, std::vector<SchedulerEvent>&)
{
  leave_phase(id, a);
  move_held(a, job(id), ledger_state(a.phase), ledger_state(phase));
  a.phase = phase;
  a.phase_start_s = now_;
  a.timer_seq = ++next_seq_; // whatever timer the old phase had is void
}

double RunState::shard_bytes(const ActiveJob& a, const Job& j) const
{
  const int nodes = std::max(1, records_[j.id].allocation.node_count());
  return a.checkpoint_bytes / nodes;
}

void RunState::begin_job(JobId id, std::vector<SchedulerEvent>& events)
{
  const Job& j = job(id);
  const JobRecord& record = records_[id];
  const bool first = !active_.count(id);
  ActiveJob& a = active_[id];
  if (timeline_)
    timeline_->attempt_started(now_, id, id);
  if (a.phase == JobPhase::Starting) // from the queue: apply() put its GPUs in Restart
    a.phase_start_s = now_;
  a.held_gpus = record.allocation.gpus_held();
  if (first) {
    a.phase = JobPhase::Starting;
    a.phase_start_s = now_;
    const CheckpointSpec* spec = setup_.checkpoint;
    a.checkpoints = spec && spec->enabled &&
                    std::find(spec->job_types.begin(), spec->job_types.end(), j.type) != spec->job_types.end();
    if (a.checkpoints)
      plan_checkpoints(id, a);
    enter_training(id, a, events);
    return;
  }
  // A restart: health check, initialisation, then the latest checkpoint is read back.
  enter(id, a, JobPhase::Starting, events);
  const double cost = (setup_.recovery ? setup_.recovery->health_check_s() : 0) +
                      (a.checkpoints ? setup_.checkpoint->init_s : 0);
  if (cost > 0) {
    arm(id, a, now_ + cost);
    return;
  }
  on_timer(id, events); // nothing to wait for: go on at once
}

void RunState::plan_checkpoints(JobId id, ActiveJob& a)
{
  const CheckpointSpec& spec = *setup_.checkpoint;
  const Job& j = job(id);
  const Allocation& allocation = records_[id].allocation;
  const int nodes = allocation.node_count();
  const int pod_index = topology_->pod_of(allocation.parts.front().node);
  const PodSpec& pod = topology_->spec().pods[pod_index];
  a.checkpoint_bytes = checkpoint_bytes(spec, j.gpus);
  a.snapshot_s = a.checkpoint_bytes / nodes / (spec.snapshot_GBps * 1e9);
  // Blocking cost for Young and Daly: an uncontended write through the nodes' storage path.
  const double node_Bps =
      (pod.storage_nics > 0 ? pod.storage_nics * storage_nic_Gbps(pod) : pod.compute_nics * pod.nic_bandwidth_Gbps) /
      8 * 1e9;
  const double storage_Bps = topology_->spec().storage.bandwidth_GBps * 1e9;
  const double write_s = a.checkpoint_bytes / std::min(nodes * node_Bps, storage_Bps);
  const double delta = spec.mode == CheckpointMode::Sync ? write_s : a.snapshot_s;
  const double rate = setup_.job_failure_rate ? setup_.job_failure_rate(pod_index, nodes) : 0;
  const double mtbf = rate > 0 ? 1 / rate : std::numeric_limits<double>::infinity();
  a.interval_s = checkpoint_interval(spec, j.gpus, delta, mtbf);
  a.next_checkpoint_s = a.interval_s;
  stats(id); // a checkpointing job always reports its figures
}

void RunState::enter_training(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  enter(id, a, JobPhase::Training, events);
  const double work = job(id).duration_s;
  const double target = a.checkpoints ? std::min(work, a.next_checkpoint_s) : work;
  arm(id, a, now_ + (target - a.progress_s));
}

void RunState::on_timer(JobId id, std::vector<SchedulerEvent>& events)
{
  const Job& j = job(id);
  ActiveJob& a = active_.at(id);
  switch (a.phase) {
    case JobPhase::Training: {
      const double work = j.duration_s;
      a.progress_s = a.checkpoints ? std::min(work, a.next_checkpoint_s) : work;
      if (a.progress_s >= work)
        finish_job(id, events);
      else
        checkpoint_due(id, a, events);
      return;
    }
    case JobPhase::Starting:
      if (a.checkpoints && a.committed_s > 0) {
        enter(id, a, JobPhase::Loading, events);
        start_transfer(id, a, false);
      } else {
        enter_training(id, a, events);
      }
      return;
    case JobPhase::Snapshot:
      // The snapshot is in host memory: training goes on while it is uploaded.
      a.upload_progress_s = a.progress_s;
      a.next_checkpoint_s = a.progress_s + a.interval_s;
      start_transfer(id, a, true);
      enter_training(id, a, events);
      return;
    case JobPhase::Detecting:
    case JobPhase::WaitingForPerson:
      detection_over(id, a, events);
      return;
    case JobPhase::ModelLoad:
    case JobPhase::Preprocess:
    case JobPhase::Inference:
    case JobPhase::Metric:
      eval_timer(id, a, events);
      return;
    case JobPhase::Loading:
    case JobPhase::Writing:
    case JobPhase::AwaitingUpload:
      break; // these end with a transfer, never a timer
  }
  throw std::logic_error("job " + j.name + " got a timer in a phase that has none");
}

void RunState::checkpoint_due(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  if (setup_.checkpoint->mode == CheckpointMode::Sync) {
    enter(id, a, JobPhase::Writing, events);
    start_transfer(id, a, false);
    return;
  }
  if (a.upload || (a.waits_for_storage && a.phase == JobPhase::Training)) {
    // The previous upload still runs: the next snapshot waits for it (host memory holds one).
    enter(id, a, JobPhase::AwaitingUpload, events);
    return;
  }
  enter(id, a, JobPhase::Snapshot, events);
  arm(id, a, now_ + a.snapshot_s);
}

void RunState::start_transfer(JobId id, ActiveJob& a, bool upload)
{
  if (storage_down_) {
    a.waits_for_storage = true; // started by storage_back()
    return;
  }
  a.waits_for_storage = false;
  const TransferId tid = next_transfer_++;
  transfers_.emplace(tid, id);
  (upload ? a.upload : a.transfer) = tid;
  const Job& j = job(id);
  const auto direction = a.phase == JobPhase::Loading ? TransferDirection::FromStorage : TransferDirection::ToStorage;
  setup_.transfers->start(tid, records_[id].allocation, shard_bytes(a, j), direction);
}

void RunState::drop_transfers(ActiveJob& a)
{
  for (auto* transfer : {&a.transfer, &a.upload})
    if (*transfer) {
      setup_.transfers->cancel(**transfer);
      transfers_.erase(**transfer);
      transfer->reset();
    }
  a.waits_for_storage = false;
}

void RunState::transfer_done(double now, TransferId tid)
{
  if (now < now_)
    throw std::logic_error("a transfer ended before the current time");
  now_ = now;
  ledger_.advance_to(now);
  if (const auto load = model_loads_.find(tid); load != model_loads_.end()) {
    const std::uint64_t key = load->second;
    model_loads_.erase(load);
    node_model_ready(key);
    return;
  }
  const auto it = transfers_.find(tid);
  if (it == transfers_.end())
    return; // cancelled by a failure at this same instant
  const JobId id = it->second;
  transfers_.erase(it);
  ActiveJob& a = active_.at(id);
  std::vector<SchedulerEvent> events;
  if (a.phase == JobPhase::ModelLoad && a.transfer == tid) {
    a.transfer.reset();
    model_loaded(id, a);
    return;
  }
  if (a.upload == tid) {
    a.upload.reset();
    a.committed_s = a.upload_progress_s;
    ++stats(id).checkpoints;
    checkpoint_committed(id);
    if (a.phase == JobPhase::AwaitingUpload) {
      enter(id, a, JobPhase::Snapshot, events);
      arm(id, a, now_ + a.snapshot_s);
    }
  } else if (a.transfer == tid) {
    a.transfer.reset();
    if (a.phase == JobPhase::Writing) {
      a.committed_s = a.progress_s;
      a.next_checkpoint_s = a.progress_s + a.interval_s;
      ++stats(id).checkpoints;
      checkpoint_committed(id);
    }
    enter_training(id, a, events); // after a write or a load
  }
  if (!events.empty())
    throw std::logic_error("a transfer produced scheduler events");
}

} // namespace acmesim
