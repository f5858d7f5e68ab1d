#pragma once
// A scheduler for tests that read what the view says of a job's communication in a whole run:
// FIFO with the scenario's placement that, at every call, notes job 0's communication
// (ClusterView::communication) by the time, and asks to be called at t = 100 and t = 300. Set
// `scheduler.name: test-communication-probe` and read `probe_seen()` after the run.
#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace acmesim::testing {

// What the probe saw of job 0 at each call, by time (nothing while no job is known).
inline std::map<double, std::optional<JobCommunication>>& probe_seen()
{
  static std::map<double, std::optional<JobCommunication>> seen;
  return seen;
}

class CommunicationProbe final : public Scheduler {
public:
  CommunicationProbe(const Topology& topology, std::unique_ptr<PlacementPolicy> placement)
      : fifo_(scheduler_registry().make("fifo", {}, topology, std::move(placement)))
  {
  }

  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override
  {
    Decisions d = fifo_->decide(view, events);
    probe_seen()[view.now()] = view.job_count() > 0 ? view.communication(0) : std::nullopt;
    for (const double at : {100.0, 300.0})
      if (at > view.now()) {
        d.wake_at = std::min(d.wake_at, at);
        break;
      }
    return d;
  }

private:
  std::unique_ptr<Scheduler> fifo_;
};

inline const Registration communication_probe(
    scheduler_registry(), {"test-communication-probe", "FIFO that reads the view's communication", {}},
    [](const PolicyParams&, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<CommunicationProbe>(topology, std::move(placement));
    });

} // namespace acmesim::testing
