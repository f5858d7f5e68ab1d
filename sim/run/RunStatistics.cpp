#include "sim/run/RunStatistics.hpp"

namespace acmesim {

const JobFaultStats* RunStatistics::fault_stats(JobId id) const
{
  const auto it = faults_.find(id);
  return it == faults_.end() ? nullptr : &it->second;
}

const TrialTimes* RunStatistics::trial_times(JobId id) const
{
  const auto it = trials_.find(id);
  return it == trials_.end() ? nullptr : &it->second;
}

// The time spent in the phase that ended counts for the job (or the trial) shown on the GPUs.
void RunStatistics::on(const PhaseChanged& c)
{
  const double spent = c.now - c.since;
  if (spent <= 0)
    return;
  switch (c.from) {
    case JobPhase::Starting:
    case JobPhase::Loading:
      faults_[c.holder].restart_s += spent;
      break;
    case JobPhase::Snapshot:
    case JobPhase::Writing:
    case JobPhase::AwaitingUpload:
      faults_[c.holder].checkpoint_s += spent;
      break;
    case JobPhase::Detecting:
      faults_[c.holder].detection_s += spent;
      break;
    case JobPhase::WaitingForPerson:
      faults_[c.holder].waiting_s += spent;
      break;
    case JobPhase::ModelLoad:
      trials_[c.shown].load_s += spent;
      break;
    case JobPhase::Preprocess:
      trials_[c.shown].preprocess_s += spent;
      break;
    case JobPhase::Inference:
      trials_[c.shown].inference_s += spent;
      break;
    case JobPhase::Metric:
      trials_[c.shown].metric_s += spent;
      break;
    case JobPhase::Queued:
    case JobPhase::Training: // progress is the job's own
    case JobPhase::Ended:
      break;
  }
}

void RunStatistics::on(const AttemptStarted& c)
{
  if (c.trial)
    trials_[c.shown]; // a trial that ran is reported, even with phases of no length
}

void RunStatistics::on(const AttemptEnded& c)
{
  if (c.trial)
    trials_[c.shown].gpu_release_s = c.now;
}

void RunStatistics::on(const WorkLost& c)
{
  JobFaultStats& s = faults_[c.job];
  s.lost_s += c.lost_s;
  ++s.interruptions;
  ++counts_.job_interruptions;
}

void RunStatistics::on(const JobGivenUp& c)
{
  JobFaultStats& s = faults_[c.job];
  s.gave_up = true;
  s.useful_s = c.useful_s;
  ++counts_.jobs_given_up;
}

void RunStatistics::on(const NodeHealthChanged& c)
{
  if (c.from == NodeHealth::Spare && c.to == NodeHealth::InService)
    ++counts_.spare_swaps;
}

void RunStatistics::on(const FailureApplied& c) { applied_.push_back(c.failure); }

void RunStatistics::on(const FailureIgnored& c)
{
  ++(c.lemon_cured ? counts_.lemon_failures_avoided : counts_.on_components_already_down);
}

} // namespace acmesim
