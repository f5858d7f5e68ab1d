#include "sim/run/Run.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace acmesim {

namespace {

int spares_per_pod(const RunSetup& setup) { return setup.recovery ? setup.recovery->spare_nodes_per_pod() : 0; }

// Per pod, the most GPUs a job may ask for and still fit it when it is empty (spares held out).
std::vector<int> largest_fits(const Topology& topology, int spares)
{
  std::vector<int> largest;
  for (const auto& pod : topology.spec().pods)
    largest.push_back((pod.nodes - std::max(spares, 0)) * pod.gpus_per_node);
  return largest;
}

void check_setup(const Workload& workload, const RunSetup& setup)
{
  if (moves_storage_data(workload, setup) && !setup.transfers)
    throw std::logic_error("failures, checkpoints and evaluation trials need a transfer service");
  if (setup.failures && (!setup.recovery || !setup.failure_spec))
    throw std::logic_error("failures need a recovery policy and their spec");
  if (!workload.eval_chunks.empty() && !setup.evaluation)
    throw std::logic_error("evaluation trials need their spec");
}

TrainingSetup training_setup(const RunSetup& setup, TrialGroups& trials)
{
  TrainingSetup training;
  training.checkpoint = setup.checkpoint;
  training.health_check_s = setup.recovery ? setup.recovery->health_check_s() : 0;
  training.failure_rate = setup.job_failure_rate;
  training.on_checkpoint = [&trials](JobId job, int checkpoints) { trials.checkpoint_committed(job, checkpoints); };
  return training;
}

} // namespace

bool moves_storage_data(const Workload& workload, const RunSetup& setup)
{
  return setup.failures || (setup.checkpoint && setup.checkpoint->enabled) || !workload.eval_chunks.empty();
}

Run::Run(const Topology& topology, const Workload& workload, Scheduler& scheduler, RunSetup setup)
    : records_(topology, workload.jobs, setup.utilisation_bin_s, setup.timeline, setup.utilisation_max_bins)
    , jobs_(workload)
    , holders_(topology, jobs_, clock_, records_.events())
    , cpu_work_(records_.events())
    , queue_(jobs_, cpu_work_, inbox_, largest_fits(topology, spares_per_pod(setup)), setup.start_overhead_s)
    , transfers_(setup.transfers)
    , speeds_(core(), SpeedSetup{setup.network, setup.checkpoint, setup.rings})
    , training_(core(), transfers_, speeds_, training_setup(setup, trials_))
    , nodes_(core(), spares_per_pod(setup))
    , recovery_(core(), training_, nodes_, queue_, setup.recovery, setup.failure_spec)
    , outages_(core(), nodes_, recovery_, training_, transfers_, setup.failures, setup.recovery, setup.transfers)
    , trials_(core(), queue_, transfers_, cpu_work_, setup.evaluation, setup.checkpoint)
    , scheduler_(&scheduler)
    , decision_watch_(setup.decision_limit_s, setup.scheduler_name)
    , estimates_(setup.estimates)
{
  check_setup(workload, setup);
  nodes_.hold_initial_spares();
}

RunCore Run::core()
{
  return RunCore{holders_.cluster().topology(), clock_, records_.events(), inbox_, jobs_, holders_};
}

double Run::next_event_time() const
{
  double t = std::min({queue_.next_arrival(), holders_.next_timer(), cpu_work_.next_time()});
  if (trials_.has_pending_triggers())
    t = std::min(t, now());
  // Failures and repairs matter only while some job has yet to end: the run stops with its last
  // job, not with the failure model's endless stream.
  if (jobs_.work_remains())
    t = std::min({t, outages_.next_repair_time(), std::max(now(), outages_.next_failure_time()), scheduler_wake_at_});
  return t;
}

void Run::process_instant(double now)
{
  if (queued_) {
    counters_.queued_s += now - last_instant_s_;
    counters_.free_gpu_s_while_queued += free_gpus_ * (now - last_instant_s_);
  }
  clock_.advance_to(now);
  records_.events().publish(ClockAdvanced{now});
  ++counters_.instants;
  while (const auto id = holders_.pop_due_timer(now))
    dispatch_timer(*id);
  cpu_work_.end_due(now, jobs_);
  outages_.end_repairs_due(now);
  while (jobs_.work_remains() && outages_.next_failure_time() <= now)
    outages_.apply_next_failure();
  trials_.launch_triggered_campaigns();
  queue_.submit_due(now);
  call_scheduler();
  // The queue and the GPUs jobs hold change only in an instant: as they are now until the next.
  last_instant_s_ = now;
  queued_ = !queue_.ids().empty();
  free_gpus_ = holders_.cluster().free_gpus_total();
}

void Run::dispatch_timer(JobId id)
{
  switch (holders_.phase(id)) {
    case JobPhase::Detecting:
    case JobPhase::WaitingForPerson:
      recovery_.on_timer(id);
      return;
    case JobPhase::ModelLoad:
    case JobPhase::Preprocess:
    case JobPhase::Inference:
    case JobPhase::Metric:
      trials_.on_timer(id);
      return;
    default:
      training_.on_timer(id);
  }
}

void Run::call_scheduler()
{
  if (inbox_.empty() && now() < scheduler_wake_at_)
    return;
  const std::vector<SchedulerEvent>& events = inbox_.take(now());
  ++counters_.scheduler_calls;
  const Decisions decisions = [&] {
    const auto watched = decision_watch_.arm(now());
    return scheduler_->decide(view(), events);
  }();
  if (decisions.wake_at <= now())
    throw std::logic_error("scheduler asked to be woken at " + std::to_string(decisions.wake_at) + ", not after now");
  scheduler_wake_at_ = decisions.wake_at;
  for (JobId id : decisions.preempts)
    recovery_.preempt(id);
  for (const auto& decision : decisions.starts)
    start(decision);
  if (!inbox_.empty())
    throw std::logic_error("starting or preempting jobs produced scheduler events");
  counters_.max_queue_length = std::max(counters_.max_queue_length, queue_.ids().size());
}

void Run::start(const StartDecision& decision)
{
  const JobId id = decision.job;
  if (!queue_.remove(id))
    throw std::logic_error("scheduler started job " + std::to_string(id) + ", which is not queued");
  const Job& j = jobs_.job(id);
  if (const std::string problem = allocation_problem(topology(), j, decision.allocation); !problem.empty())
    throw std::logic_error("scheduler gave job " + j.name + " an allocation " + problem);
  holders_.take(id, decision.allocation); // throws if the GPUs are not free (or a node is out of service)
  jobs_.started(id, now());
  if (j.eval_trial()) {
    trials_.begin(decision);
    return;
  }
  if (!decision.then.empty() || decision.local_model || decision.metric_on_cpu)
    throw std::logic_error("scheduler gave evaluation options to job " + j.name + ", which is no trial");
  training_.begin(id);
}

void Run::network_changed(double at)
{
  clock_.advance_to(at);
  records_.events().publish(ClockAdvanced{at});
  training_.network_changed();
}

void Run::transfer_done(double now, TransferId id)
{
  clock_.advance_to(now);
  records_.events().publish(ClockAdvanced{now});
  const auto owner = transfers_.finish(id);
  if (!owner)
    return; // cancelled by a failure at this same instant
  const std::size_t posted = inbox_.size();
  switch (owner->kind) {
    case TransferOwner::Kind::NodeModel:
      trials_.node_model_ready(owner->key);
      break;
    case TransferOwner::Kind::TrialGroup:
      trials_.model_loaded(static_cast<JobId>(owner->key));
      break;
    case TransferOwner::Kind::Job:
      training_.transfer_done(static_cast<JobId>(owner->key), id);
      break;
  }
  if (inbox_.size() != posted)
    throw std::logic_error("a transfer produced scheduler events");
}

} // namespace acmesim
