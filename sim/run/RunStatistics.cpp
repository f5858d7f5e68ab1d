#include "sim/run/RunStatistics.hpp"

#include <algorithm>

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

double RunStatistics::slowdown(JobId id) const
{
  if (id >= trained_.size() || trained_[id].reference_s <= 0)
    return 1;
  return trained_[id].wall_s / trained_[id].reference_s;
}

std::optional<double> RunStatistics::ring_bandwidth_Bps(JobId id) const
{
  if (id >= trained_.size() || trained_[id].ring_s <= 0)
    return std::nullopt;
  return trained_[id].ring_bytes / trained_[id].ring_s;
}

void RunStatistics::on(const TrainedAtSpeed& c)
{
  if (c.job >= trained_.size())
    trained_.resize(std::max<std::size_t>(c.job + 1, jobs_));
  Trained& t = trained_[c.job];
  t.wall_s += c.now - c.since;
  t.reference_s += (c.now - c.since) / c.slowdown;
  if (c.ring_Bps > 0) {
    t.ring_s += c.now - c.since;
    t.ring_bytes += (c.now - c.since) * c.ring_Bps;
  }
}

namespace {

// The figure of a job's fault statistics that time in `phase` adds to (nullptr: none; time spent
// training is the job's progress, not a cost).
double JobFaultStats::*fault_figure(JobPhase phase)
{
  using enum JobPhase;
  if (phase == Starting || phase == Loading)
    return &JobFaultStats::restart_s;
  if (phase == Snapshot || phase == Writing || phase == AwaitingUpload)
    return &JobFaultStats::checkpoint_s;
  if (phase == Detecting)
    return &JobFaultStats::detection_s;
  return phase == WaitingForPerson ? &JobFaultStats::waiting_for_person_s : nullptr;
}

// The phase time of an evaluation trial that time in `phase` adds to (nullptr: none).
double TrialTimes::*trial_figure(JobPhase phase)
{
  using enum JobPhase;
  return phase == ModelLoad    ? &TrialTimes::load_s
         : phase == Preprocess ? &TrialTimes::preprocess_s
         : phase == Inference  ? &TrialTimes::inference_s
         : phase == Metric     ? &TrialTimes::metric_s
                               : nullptr;
}

} // namespace

// The time spent in the phase that ended counts for the job (or the trial) shown on the GPUs.
void RunStatistics::on(const PhaseChanged& c)
{
  const double spent = c.now - c.since;
  if (spent <= 0)
    return;
  if (const auto figure = fault_figure(c.from))
    faults_[c.holder].*figure += spent;
  else if (const auto time = trial_figure(c.from))
    trials_[c.shown].*time += spent;
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
  if (c.cause == LossCause::Preemption) {
    s.preempted_s += c.lost_s;
    ++s.preemptions;
    return;
  }
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
