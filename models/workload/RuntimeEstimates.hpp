#pragma once
// How schedulers estimate a job's run time before it ends (workload.estimates): the run's one
// estimate model. Built-in backfilling reserves against it, and every scheduler, plugins and
// Python policies included, reads it from its view (ClusterView::estimates()) with each running
// job's estimated end. A real scheduler knows only what users requested; the models here derive
// the estimate from the recorded run time.
#include "models/workload/Job.hpp"

#include <cstdint>

namespace acmesim {

enum class EstimateModel : std::uint8_t {
  Actual, // the recorded run time: perfect estimates
  Factor, // the recorded run time x factor (>= 1): users over-estimate by that much
};
constexpr auto enum_names(EstimateModel) { return names_in_order<EstimateModel>("actual", "factor"); }

struct RuntimeEstimates {
  EstimateModel model = EstimateModel::Actual;
  double factor = 1; // with Factor

  // The run time a scheduler expects of `job` (failures and checkpoints make real runs longer).
  double of(const Job& job) const { return model == EstimateModel::Factor ? job.duration_s * factor : job.duration_s; }
};

} // namespace acmesim
