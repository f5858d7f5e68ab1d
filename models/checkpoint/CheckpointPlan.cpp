#include "models/checkpoint/CheckpointPlan.hpp"

#include "models/checkpoint/CheckpointMath.hpp"

#include <limits>

namespace acmesim {

CheckpointPlan plan_checkpoints(const CheckpointSpec& spec, int gpus, int nodes, double write_Bps,
                                double failures_per_s)
{
  CheckpointPlan plan;
  plan.bytes = checkpoint_bytes(spec, gpus);
  plan.snapshot_s = plan.bytes / nodes / (spec.snapshot_GBps * 1e9);
  const double write_s = plan.bytes / write_Bps;
  const double blocking_s = spec.mode == CheckpointMode::Sync ? write_s : plan.snapshot_s;
  const double mtbf_s = failures_per_s > 0 ? 1 / failures_per_s : std::numeric_limits<double>::infinity();
  plan.interval_s = checkpoint_interval(spec, gpus, blocking_s, mtbf_s);
  return plan;
}

} // namespace acmesim
