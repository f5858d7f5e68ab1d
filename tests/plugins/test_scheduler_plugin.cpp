// A scheduler plugin for the tests, built against the headers a plugin would use: first come,
// first served like the built-in fifo (mode 0), or misbehaving on purpose to test how acmesim
// stops a run: throwing (mode 1), or starting every job on node 0, free or not (mode 2).
#include "sim/policies/QueueScheduler.hpp"
#include "sim/scheduler/SchedulerPlugin.hpp"

#include <stdexcept>

namespace {

class TestScheduler final : public acmesim::QueueScheduler {
public:
  TestScheduler(const acmesim::Topology& topology, std::unique_ptr<acmesim::PlacementPolicy> placement, int mode)
      : QueueScheduler(topology, std::move(placement)), mode_(mode)
  {
  }

private:
  void schedule(const acmesim::ClusterView& view, const std::vector<acmesim::SchedulerEvent>&) override
  {
    if (mode_ == 1 && view.now() >= 100)
      throw std::runtime_error("the test plugin gives up at 100 s");
    for (acmesim::JobId job : view.queue())
      if (!try_start(view, job))
        return;
  }

  int mode_;
};

// Decides without looking: every queued job on node 0.
class CarelessScheduler final : public acmesim::Scheduler {
public:
  acmesim::Decisions decide(const acmesim::ClusterView& view, const std::vector<acmesim::SchedulerEvent>&) override
  {
    acmesim::Decisions d;
    for (acmesim::JobId job : view.queue()) {
      acmesim::StartDecision start;
      start.job = job;
      start.allocation.parts.push_back({0, view.job(job).gpus});
      d.starts.push_back(std::move(start));
    }
    return d;
  }
};

acmesim::SchedulerPlugin make_plugin()
{
  return {{"test-fifo",
           "first come, first served (mode 0), or misbehaving: throwing (1), starting on busy GPUs (2)",
           {{"mode", "0: fifo, 1: throw at 100 s, 2: every job on node 0", 0, 0, 2, true}}},
          [](const acmesim::PolicyParams& params, const acmesim::Topology& topology,
             std::unique_ptr<acmesim::PlacementPolicy> placement) {
            if (params.integer("mode") == 2)
              return std::unique_ptr<acmesim::Scheduler>(std::make_unique<CarelessScheduler>());
            return std::unique_ptr<acmesim::Scheduler>(
                std::make_unique<TestScheduler>(topology, std::move(placement), params.integer("mode")));
          }};
}

} // namespace

ACMESIM_SCHEDULER_PLUGIN(make_plugin)
