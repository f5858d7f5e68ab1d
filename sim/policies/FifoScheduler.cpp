#include "sim/policies/FifoScheduler.hpp"

#include "sim/policies/Registries.hpp"

namespace acmesim {

const Registration fifo(scheduler_registry(),
                        {"fifo", "strict submission order; the queue head blocks everyone behind it", {}},
                        [](const PolicyParams&, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
                          return std::make_unique<FifoScheduler>(topology, std::move(placement));
                        });

void FifoScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  for (JobId job : view.queue())
    if (!try_start(view, job))
      return;
}

} // namespace acmesim
