#include "sim/policies/FifoScheduler.hpp"

namespace acmesim {

void FifoScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  for (JobId job : view.queue())
    if (!try_start(view, job))
      return;
}

} // namespace acmesim
