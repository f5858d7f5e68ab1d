#pragma once
// How schedulers estimate a job's run time before it ends (workload.estimates): the run's one
// estimate model. Built-in backfilling reserves against it, and every scheduler, plugins and
// Python policies included, reads it from its view (ClusterView::estimates()) with each running
// job's estimated end. A real scheduler knows only what users requested: `requested` replays that
// where the log recorded it; the other models derive the estimate from the recorded run time.
#include "models/workload/Job.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace acmesim {

enum class EstimateModel : std::uint8_t {
  Actual, // the recorded run time: perfect estimates
  Factor, // the recorded run time x factor (>= 1): users over-estimate by that much
  // The run time the user requested (Job::requested_s), as the machine's scheduler saw it; a job
  // that records none is estimated by its run time. Users under-estimate too: such a job runs past
  // its estimate, and backfilling must expect it to end at any moment.
  Requested,
};
constexpr auto enum_names(EstimateModel)
{
  return names_in_order<EstimateModel>("actual", "factor", "requested");
}

struct RuntimeEstimates {
  EstimateModel model = EstimateModel::Actual;
  double factor = 1; // with Factor

  // The run time a scheduler expects of `job` (failures and checkpoints make real runs longer).
  double of(const Job& job) const
  {
    switch (model) {
      case EstimateModel::Factor:
        return job.duration_s * factor;
      case EstimateModel::Requested:
        return job.requested_s > 0 ? job.requested_s : job.duration_s;
      case EstimateModel::Actual:
        break;
    }
    return job.duration_s;
  }
};

// How a workload's requested times stand against its run times, for saying what `requested`
// estimates do. A job that ran past its request shows the machine's grace (a kill at the limit
// comes a little late) or a scheduler that let it run: the recorded run time is replayed either
// way, so acmesim kills no job at its requested time, and a recorded kill is replayed as it was.
struct RequestedTimes {
  std::size_t recorded = 0; // jobs with a requested time (> 0)
  std::size_t overran = 0;  // of them, jobs that ran longer than requested
  double max_overrun_s = 0;
  std::size_t none = 0; // jobs without one: estimated by their run time
};
inline RequestedTimes requested_times(const std::vector<Job>& jobs)
{
  RequestedTimes r;
  for (const Job& job : jobs) {
    if (!(job.requested_s > 0)) {
      ++r.none;
      continue;
    }
    ++r.recorded;
    if (job.duration_s > job.requested_s) {
      ++r.overran;
      r.max_overrun_s = std::max(r.max_overrun_s, job.duration_s - job.requested_s);
    }
  }
  return r;
}

} // namespace acmesim
