#pragma once
#include "sim/policies/QueueScheduler.hpp"

namespace acmesim {

// Strict first-come first-served: jobs start in submission order, and a queue head that does
// not fit blocks every job behind it (head-of-line blocking), even ones that would fit.
class FifoScheduler final : public QueueScheduler {
public:
  using QueueScheduler::QueueScheduler;

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
};

} // namespace acmesim
