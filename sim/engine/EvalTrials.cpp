// RunState, part 4: evaluation trials. A start decision runs one trial, or a group of trials
// one after another on the same GPUs (the model stays loaded between them). Each trial goes
// through model load (first trial of a group only), preprocessing, inference and its metric,
// which either holds the GPUs or, with metric_on_cpu, runs on CPUs while the next trial starts.
// With local_model the model comes over PCIe from the node's host memory, filled from storage
// once per campaign and node by the first trial that needs it (Acme NSDI'24 §6.2).
#include "sim/engine/RunState.hpp"

#include "models/checkpoint/CheckpointMath.hpp"
#include "models/evaluation/EvalCampaign.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace acmesim {

namespace {

std::uint64_t model_key(std::uint32_t campaign, NodeId node)
{
  return (static_cast<std::uint64_t>(campaign) << 32) | node;
}

} // namespace

const TrialTimes* RunState::trial_times(JobId id) const
{
  const auto it = trial_times_.find(id);
  return it == trial_times_.end() ? nullptr : &it->second;
}

void RunState::begin_trials(const StartDecision& start)
{
  const JobId leader = start.job;
  const Job& lead = job(leader);
  for (JobId member : start.then) {
    const Job& m = job(member);
    if (!m.eval_trial() || m.gpus != lead.gpus || chunk_of(member).campaign != chunk_of(leader).campaign)
      throw std::logic_error("scheduler grouped job " + m.name + " with trial " + lead.name +
                             ": a group holds trials of one campaign and one size");
    if (queue_.erase(member) == 0)
      throw std::logic_error("scheduler grouped job " + m.name + ", which is not queued");
  }
  ActiveJob& a = active_[leader];
  a.held_gpus = records_[leader].allocation.gpus_held();
  a.phase = JobPhase::Starting; // apply() put its GPUs in Restart; the load phase takes them
  a.phase_start_s = now_;
  a.group_rest = start.then;
  a.local_model = start.local_model;
  a.metric_on_cpu = start.metric_on_cpu;
  a.on_gpu = leader;
  start_trial(leader, a, true);
}

void RunState::start_trial(JobId leader, ActiveJob& a, bool load)
{
  JobRecord& record = records_[a.on_gpu];
  record.outcome = JobOutcome::Running;
  record.start_s = now_;
  if (a.on_gpu != leader)
    record.allocation = records_[leader].allocation; // for the report; the leader holds the GPUs
  trial_times_[a.on_gpu];
  if (timeline_)
    timeline_->attempt_started(now_, leader, a.on_gpu);
  std::vector<SchedulerEvent> none;
  if (!load) {
    model_loaded(leader, a);
    return;
  }
  const EvalChunk& chunk = chunk_of(a.on_gpu);
  enter(leader, a, JobPhase::ModelLoad, none);
  if (!a.local_model) {
    const TransferId tid = next_transfer_++;
    transfers_.emplace(tid, leader);
    a.transfer = tid;
    setup_.transfers->start(tid, records_[leader].allocation, chunk.model_bytes, TransferDirection::FromStorage);
    return;
  }
  const NodeId node = records_[leader].allocation.parts.front().node;
  const std::uint64_t key = model_key(chunk.campaign, node);
  NodeModel& copy = node_models_[key];
  if (copy.ready) {
    arm(leader, a, now_ + chunk.model_bytes / (setup_.evaluation->pcie_GBps * 1e9));
    return;
  }
  a.waits_for_model = true;
  const bool first = copy.waiting.empty();
  copy.waiting.push_back(leader);
  if (!first)
    return; // another trial is already loading it
  const TransferId tid = next_transfer_++;
  model_loads_.emplace(tid, key);
  setup_.transfers->start(tid, Allocation{{{node, 1}}}, chunk.model_bytes, TransferDirection::FromStorage);
}

void RunState::node_model_ready(std::uint64_t key)
{
  NodeModel& copy = node_models_.at(key);
  copy.ready = true;
  std::vector<JobId> waiting;
  waiting.swap(copy.waiting);
  std::sort(waiting.begin(), waiting.end());
  for (JobId leader : waiting) {
    ActiveJob& a = active_.at(leader);
    a.waits_for_model = false;
    arm(leader, a, now_ + chunk_of(a.on_gpu).model_bytes / (setup_.evaluation->pcie_GBps * 1e9));
  }
}

// The model is on the GPUs: preprocessing (if any), then inference.
void RunState::model_loaded(JobId leader, ActiveJob& a)
{
  std::vector<SchedulerEvent> none;
  const EvalChunk& chunk = chunk_of(a.on_gpu);
  if (chunk.preprocess_s > 0) {
    enter(leader, a, JobPhase::Preprocess, none);
    arm(leader, a, now_ + chunk.preprocess_s);
    return;
  }
  enter(leader, a, JobPhase::Inference, none);
  arm(leader, a, now_ + chunk.inference_s);
}

void RunState::eval_timer(JobId leader, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  const EvalChunk& chunk = chunk_of(a.on_gpu);
  switch (a.phase) {
    case JobPhase::ModelLoad: // a PCIe copy from host memory ended
      model_loaded(leader, a);
      return;
    case JobPhase::Preprocess:
      enter(leader, a, JobPhase::Inference, events);
      arm(leader, a, now_ + chunk.inference_s);
      return;
    case JobPhase::Inference:
      if (a.metric_on_cpu || chunk.metric_s <= 0) {
        if (chunk.metric_s > 0) {
          cpu_work_.emplace(now_ + chunk.metric_s, a.on_gpu);
          trial_times_[a.on_gpu].metric_s = chunk.metric_s;
        }
        trial_off_gpu(leader, a, events);
        return;
      }
      enter(leader, a, JobPhase::Metric, events);
      arm(leader, a, now_ + chunk.metric_s);
      return;
    case JobPhase::Metric:
      trial_off_gpu(leader, a, events);
      return;
    default:
      break;
  }
  throw std::logic_error("evaluation trial " + job(a.on_gpu).name + " got a timer in a phase that has none");
}

// The trial on the GPUs is done with them: the next trial of the group starts, or the group
// gives its GPUs back.
void RunState::trial_off_gpu(JobId leader, ActiveJob& a, std::vector<SchedulerEvent>& events)
{
  leave_phase(leader, a);
  a.phase_start_s = now_; // accounted; the next phase starts from here
  if (timeline_)
    timeline_->stretch_ended(now_, leader, HoldEnd::Finished);
  const JobId done = a.on_gpu;
  trial_times_[done].gpu_release_s = now_;
  const bool metric_running = !a.metric_on_cpu ? false : chunk_of(done).metric_s > 0;
  if (!metric_running)
    record_end(done);
  if (a.group_rest.empty()) {
    release_group(leader, events);
    return;
  }
  a.on_gpu = a.group_rest.front();
  a.group_rest.erase(a.group_rest.begin());
  start_trial(leader, a, false);
}

void RunState::release_group(JobId leader, std::vector<SchedulerEvent>& events)
{
  const auto it = active_.find(leader);
  if (timeline_)
    timeline_->give_back_all(leader);
  move_held(it->second, job(leader), ledger_state(it->second.phase), GpuState::Idle);
  active_.erase(it);
  JobRecord& record = records_[leader];
  for (const auto& part : record.allocation.parts) {
    auto& on_node = jobs_on_node_[part.node];
    on_node.erase(std::find(on_node.begin(), on_node.end(), leader));
  }
  cluster_.give_back(record.allocation);
  events.push_back({EventKind::JobFinished, now_, leader, 0});
}

void RunState::checkpoint_committed(JobId id)
{
  const EvalSpec* spec = setup_.evaluation;
  const Job& j = job(id);
  if (!spec || !spec->enabled || spec->every_checkpoints <= 0 || j.type != JobType::Pretrain ||
      j.gpus < spec->trigger_min_gpus)
    return;
  if (stats(id).checkpoints % spec->every_checkpoints == 0)
    pending_triggers_.push_back(id); // launched at the next instant, now: see launch_triggered_campaigns
}

// Each pending checkpoint becomes a campaign evaluating that job's model, submitted now.
void RunState::launch_triggered_campaigns(std::vector<SchedulerEvent>& events)
{
  std::vector<JobId> triggers;
  triggers.swap(pending_triggers_);
  for (JobId trigger : triggers) {
    const auto campaign = static_cast<std::uint32_t>(campaigns_.size());
    campaigns_.push_back({now_, static_cast<std::int64_t>(trigger), stats(trigger).checkpoints});
    EvalSpec spec = *setup_.evaluation;
    spec.model_params_b = model_params(*setup_.checkpoint, job(trigger).gpus) / 1e9;
    // A trial fits on one node (the model copy in host memory is per node).
    int node_gpus = std::numeric_limits<int>::max();
    for (const auto& pod : topology_->spec().pods)
      node_gpus = std::min(node_gpus, pod.gpus_per_node);
    spec.gpus_per_trial = std::min(gpus_for_model(spec.model_params_b), node_gpus);
    for (auto& [trial, chunk] : campaign_trials(spec, campaign, now_)) {
      const auto id = static_cast<JobId>(job_count());
      trial.id = id;
      trial.eval_chunk = static_cast<std::int32_t>(workload_->eval_chunks.size() + added_chunks_.size());
      added_chunks_.push_back(chunk);
      added_jobs_.push_back(std::move(trial));
      records_.emplace_back();
      queue_.insert(id);
      events.push_back({EventKind::JobSubmitted, now_, id, 0});
    }
  }
}

} // namespace acmesim
