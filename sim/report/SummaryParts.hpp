#pragma once
// The parts of a RunSummary, each built from the run's records (RunSummary.cpp assembles them).
#include "sim/config/Scenario.hpp"
#include "sim/report/RunSummary.hpp"
#include "sim/run/Run.hpp"
#include "sim/run/RunResult.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <span>
#include <vector>

namespace acmesim {

// Useful time and effective training time ratio (useful / wall time from first start to end) of
// a GPU job that ran; jobs.csv and the training summary both report them.
struct JobTimeSplit {
  bool ran = false;
  double useful_s = 0;
  double ettr = 0;
};
// `trial`: an evaluation trial's phases, whose useful time is its inference alone (the model load
// and the CPU phases hold its GPU without computing, as the ledger counts them).
JobTimeSplit time_split(const Job& job, const JobRecord& record, const JobFaultStats* stats,
                        const TrialTimes* trial = nullptr);

JobCounts summarise_jobs(const Run& run, const Workload& workload);
// `value(job, record)` of each GPU job that ran, overall and per job type: the jobs summary.json's
// wait_s, jct_s and network slowdown describe.
template <typename Stats, typename Value>
ByJobType<Stats> summarise_by_type(const Run& run, Value value)
{
  const JobTable& jobs = run.jobs();
  const auto counted = [&jobs](JobId id) {
    return !jobs.job(id).cpu_only() && jobs.record(id).outcome == JobOutcome::Ended;
  };
  // The values of each type, one type after another in one array, sized exactly: counted first.
  constexpr std::size_t TYPES = enum_values<JobType>().size();
  std::array<std::size_t, TYPES + 1> begin{}; // type t's values are [begin[t], begin[t + 1])
  for (JobId id = 0; id < jobs.count(); ++id)
    if (counted(id))
      ++begin[static_cast<std::size_t>(jobs.job(id).type) + 1];
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<double> all(begin.back());
  std::array<std::size_t, TYPES + 1> next = begin;
  for (JobId id = 0; id < jobs.count(); ++id)
    if (counted(id))
      all[next[static_cast<std::size_t>(jobs.job(id).type)]++] = value(id, jobs.job(id), jobs.record(id));
  // Each type's values sorted and summarised, then merged in place with the types before it: the
  // whole sample ends in the ascending order sorting it would give, so with the same statistics.
  ByJobType<Stats> result;
  for (std::size_t t = 0; t < TYPES; ++t) {
    const std::span<double> values(all.data() + begin[t], begin[t + 1] - begin[t]);
    if (values.empty())
      continue;
    sort_sample(values);
    result.by_type[static_cast<JobType>(t)] = Stats{summarise_sorted(values)};
    std::inplace_merge(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(begin[t]),
                       all.begin() + static_cast<std::ptrdiff_t>(begin[t + 1]));
  }
  result.all = Stats{summarise_sorted(all)};
  return result;
}
// Wait (or JCT) of the GPU jobs that ran, overall and per job type.
TimesByType summarise_times(const Run& run, bool wait);
// GPU-hours of `states` (and their total) from the ledger.
template <typename States>
// Only the states the run reports (state_reported).
StateHours summarise_hours(const Ledger& ledger, const States& states, bool network_on);
FailureSummary summarise_failures(const Run& run);
// Preemptions and the work they lost, from the per-job records (their GPU-hours sum to the
// ledger's `preempted`).
PreemptionSummary summarise_preemptions(const Run& run);
// ETTR summary and one entry per pretraining job that ran.
TrainingSummary summarise_training(const Run& run);
// Per campaign its makespan and trial GPU time (every trial's phases for scheduled campaigns),
// and the feedback latency of campaigns triggered by checkpoints; nullopt without campaigns.
std::optional<EvaluationSummary> summarise_evaluation(const Scenario& scenario, const Run& run);
// The CPU cores jobs held over the run, as shares of the cluster's cores and of the makespan.
CpuUtilisation summarise_cpus(const Run& run, double makespan_s);
// What held GPU jobs back (a CPU machine's jobs: its words say CPU, and host CPU cores are not
// flagged), from the summary's figures and the jobs' start overheads; each flag's rule and
// threshold: docs/outputs.md, "What binds".
std::vector<BindingFlag> what_binds(const RunSummary& summary, const Run& run, ProcessorKind processors);
// Slowdowns per job type, communication GPU-hours, the busiest links and the NICs' load;
// nullopt with the network model off.
std::optional<NetworkSummary> summarise_network(const RunResult& result);

template <typename States>
StateHours summarise_hours(const Ledger& ledger, const States& states, bool network_on)
{
  StateHours hours;
  double total = 0;
  for (GpuState s : states) {
    if (!state_reported(s, network_on))
      continue;
    hours.by_state[s] = ledger.gpu_seconds(s) / 3600.0;
    total += ledger.gpu_seconds(s);
  }
  hours.total = total / 3600.0;
  return hours;
}

} // namespace acmesim
