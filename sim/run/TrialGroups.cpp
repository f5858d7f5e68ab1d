#include "sim/run/TrialGroups.hpp"

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

int smallest_node(const Topology& topology)
{
  int gpus = std::numeric_limits<int>::max();
  for (const auto& pod : topology.spec().pods)
    gpus = std::min(gpus, pod.gpus_per_node);
  return gpus;
}

} // namespace

TrialGroups::TrialGroups(RunCore core, JobQueue& queue, TransferTable& transfers, CpuWork& cpu_work,
                         const EvalSpec* evaluation, const CheckpointSpec* checkpoint)
    : core_(core)
    , evaluation_(evaluation)
    , checkpoint_(checkpoint)
    , queue_(queue)
    , transfers_(transfers)
    , cpu_work_(cpu_work)
    , smallest_node_gpus_(smallest_node(core.topology))
{
  for (double t : core.jobs.workload().eval_campaigns_s)
    campaigns_.push_back({t, -1, 0});
}

void TrialGroups::begin(const StartDecision& start)
{
  const JobId leader = start.job;
  const Job& lead = core_.jobs.job(leader);
  const auto campaign = core_.jobs.chunk(leader).campaign;
  for (JobId member : start.then) {
    const Job& m = core_.jobs.job(member);
    if (!m.eval_trial() || m.gpus != lead.gpus || core_.jobs.chunk(member).campaign != campaign)
      throw std::logic_error("scheduler grouped job " + m.name + " with trial " + lead.name +
                             ": a group holds trials of one campaign and one size");
    if (!queue_.remove(member))
      throw std::logic_error("scheduler grouped job " + m.name + ", which is not queued");
  }
  Group& group = groups_[leader];
  group = Group{leader, start.then, start.local_model, start.metric_on_cpu};
  start_trial(leader, group, true);
}

void TrialGroups::start_trial(JobId leader, Group& group, bool load)
{
  core_.jobs.started(group.on_gpu, core_.now());
  if (group.on_gpu != leader)
    core_.holders.record_allocation(group.on_gpu, leader);
  core_.events.publish(AttemptStarted{core_.now(), leader, group.on_gpu, true});
  if (load)
    load_model(leader, group);
  else
    model_on_gpus(leader, group);
}

void TrialGroups::load_model(JobId leader, const Group& group)
{
  const EvalChunk& chunk = core_.jobs.chunk(group.on_gpu);
  core_.holders.enter(leader, JobPhase::ModelLoad, group.on_gpu);
  const Allocation& allocation = core_.holders.allocation(leader);
  if (!group.local_model) {
    transfers_.start(TransferOwner{TransferOwner::Kind::TrialGroup, leader}, allocation, chunk.model_bytes,
                     TransferDirection::FromStorage);
    return;
  }
  const NodeId node = allocation.parts.front().node;
  const std::uint64_t key = model_key(chunk.campaign, node);
  NodeModel& copy = node_models_[key];
  if (copy.ready) {
    core_.holders.arm(leader, core_.now() + host_model_load_s(*evaluation_, chunk.model_bytes));
    return;
  }
  const bool first = copy.waiting.empty();
  copy.waiting.push_back(leader);
  if (first) // otherwise another trial is already loading it
    transfers_.start(TransferOwner{TransferOwner::Kind::NodeModel, key}, Allocation{{{node, 1}}}, chunk.model_bytes,
                     TransferDirection::FromStorage);
}

void TrialGroups::node_model_ready(std::uint64_t key)
{
  NodeModel& copy = node_models_.at(key);
  copy.ready = true;
  std::vector<JobId> waiting;
  waiting.swap(copy.waiting);
  std::sort(waiting.begin(), waiting.end());
  for (JobId leader : waiting) {
    const EvalChunk& chunk = core_.jobs.chunk(groups_.at(leader).on_gpu);
    core_.holders.arm(leader, core_.now() + host_model_load_s(*evaluation_, chunk.model_bytes));
  }
}

void TrialGroups::model_loaded(JobId leader) { model_on_gpus(leader, groups_.at(leader)); }

// The model is on the GPUs: preprocessing (if any), then inference.
void TrialGroups::model_on_gpus(JobId leader, const Group& group)
{
  const EvalChunk& chunk = core_.jobs.chunk(group.on_gpu);
  const bool preprocess = chunk.preprocess_s > 0;
  core_.holders.enter(leader, preprocess ? JobPhase::Preprocess : JobPhase::Inference, group.on_gpu);
  core_.holders.arm(leader, core_.now() + (preprocess ? chunk.preprocess_s : chunk.inference_s));
}

void TrialGroups::on_timer(JobId leader)
{
  Group& group = groups_.at(leader);
  const EvalChunk& chunk = core_.jobs.chunk(group.on_gpu);
  switch (core_.holders.phase(leader)) {
    case JobPhase::ModelLoad: // a PCIe copy from host memory ended
      model_on_gpus(leader, group);
      return;
    case JobPhase::Preprocess:
      core_.holders.enter(leader, JobPhase::Inference, group.on_gpu);
      core_.holders.arm(leader, core_.now() + chunk.inference_s);
      return;
    case JobPhase::Inference:
      if (group.metric_on_cpu || chunk.metric_s <= 0) {
        if (chunk.metric_s > 0) {
          cpu_work_.run_until(group.on_gpu, core_.now() + chunk.metric_s);
          core_.events.publish(MetricMovedToCpu{core_.now(), group.on_gpu, chunk.metric_s});
        }
        trial_off_gpus(leader, group);
        return;
      }
      core_.holders.enter(leader, JobPhase::Metric, group.on_gpu);
      core_.holders.arm(leader, core_.now() + chunk.metric_s);
      return;
    case JobPhase::Metric:
      trial_off_gpus(leader, group);
      return;
    default:
      break;
  }
  throw std::logic_error("evaluation trial " + core_.jobs.job(group.on_gpu).name +
                         " got a timer in a phase that has none");
}

// The trial on the GPUs is done with them: the next trial of the group starts, or the group gives
// its GPUs back.
void TrialGroups::trial_off_gpus(JobId leader, Group& group)
{
  const JobId done = group.on_gpu;
  core_.holders.restart_phase_clock(leader, done);
  core_.events.publish(AttemptEnded{core_.now(), leader, done, HoldEnd::Finished, true});
  const bool metric_running = group.metric_on_cpu && core_.jobs.chunk(done).metric_s > 0;
  if (!metric_running)
    core_.jobs.ended(done, core_.now());
  if (group.rest.empty()) {
    core_.holders.release(leader, JobPhase::Ended, done);
    groups_.erase(leader);
    core_.inbox.post_job(EventKind::JobFinished, leader);
    return;
  }
  group.on_gpu = group.rest.front();
  group.rest.erase(group.rest.begin());
  start_trial(leader, group, false);
}

void TrialGroups::checkpoint_committed(JobId job, int checkpoints)
{
  const EvalSpec* spec = evaluation_;
  const Job& j = core_.jobs.job(job);
  if (!spec || !spec->enabled || spec->every_checkpoints <= 0 || j.type != JobType::Pretrain ||
      j.gpus < spec->trigger_min_gpus)
    return;
  if (checkpoints % spec->every_checkpoints == 0)
    pending_triggers_.emplace_back(job, checkpoints); // launched at the next instant, now
}

// Each pending checkpoint becomes a campaign evaluating that job's model, submitted now.
void TrialGroups::launch_triggered_campaigns()
{
  std::vector<std::pair<JobId, int>> triggers;
  triggers.swap(pending_triggers_);
  for (const auto& [trigger, checkpoints] : triggers) {
    const auto campaign = static_cast<std::uint32_t>(campaigns_.size());
    campaigns_.push_back({core_.now(), static_cast<std::int64_t>(trigger), checkpoints});
    const EvalSpec spec =
        triggered_campaign_spec(*evaluation_, *checkpoint_, core_.jobs.job(trigger).gpus, smallest_node_gpus_);
    for (auto& [trial, chunk] : campaign_trials(spec, campaign, core_.now())) {
      const JobId id = core_.jobs.add_trial(std::move(trial), chunk);
      queue_.enqueue(id);
      core_.inbox.post_job(EventKind::JobSubmitted, id);
    }
  }
}

} // namespace acmesim
