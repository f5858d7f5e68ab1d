// The job counts and the wait and JCT statistics of summary.json.
#include "sim/report/SummaryParts.hpp"

namespace acmesim {

JobCounts summarise_jobs(const Run& run, const Workload& workload)
{
  const JobTable& jobs = run.jobs();
  JobCounts counts;
  for (JobState s : enum_values<JobState>())
    counts.by_final_state[s] = 0;
  for (JobType t : enum_values<JobType>())
    counts.by_type[t] = 0;
  for (JobId id = 0; id < jobs.count(); ++id) {
    const Job& job = jobs.job(id);
    if (jobs.record(id).outcome == JobOutcome::Ended)
      counts.by_final_state[job.final_state]++;
    counts.by_type[job.type]++;
    counts.gpu += job.cpu_only() ? 0 : 1;
  }
  counts.total = jobs.count();
  counts.cpu_only = run.cpu_only_jobs();
  counts.rejected = jobs.rejected_count();
  counts.skipped_rows = workload.skipped_rows;
  counts.dropped_unknown = workload.dropped_unknown;
  return counts;
}

TimesByType summarise_times(const Run& run, bool wait)
{
  return summarise_by_type<TimeStats>(run, [wait](JobId, const Job& job, const JobRecord& r) {
    return wait ? r.start_s - job.submit_s : r.end_s - job.submit_s;
  });
}

} // namespace acmesim
