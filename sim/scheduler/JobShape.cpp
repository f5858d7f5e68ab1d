#include "sim/scheduler/JobShape.hpp"

namespace acmesim {

JobShape job_shape(int gpus, int node_gpus)
{
  if (gpus <= node_gpus)
    return {1, gpus, false};
  return {(gpus + node_gpus - 1) / node_gpus, node_gpus, true};
}

int Allocation::gpus_held() const
{
  int total = 0;
  for (const auto& p : parts)
    total += p.gpus;
  return total;
}

} // namespace acmesim
