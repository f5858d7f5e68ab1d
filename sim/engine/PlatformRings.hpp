#pragma once
// RingService on the SimGrid platform: a job's ring is one open-ended flow from each of its nodes
// to the next, started from maestro and capped (Action::set_bound) at the job's demand, so rings
// share NICs and fabric cables with each other and with storage flows as SimGrid's bandwidth
// sharing decides. What a flow gets is read from its action (Action::get_rate). SimGrid solves
// sharing at the start of a round: rates read at the date of a change are those from before it,
// so the engine reads them in the round after (Simulation's TimerDriver).
#include "sim/engine/FlowStart.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/run/RingService.hpp"

#include <functional>
#include <memory>

namespace acmesim {

class PlatformRings final : public RingService {
public:
  // `changed()` is called when a ring opens or closes (sharing changes).
  PlatformRings(const Platform& platform, std::function<void()> changed);
  ~PlatformRings() override;

  // `started(from, to)` for each flow started from now on.
  void watch_flow_starts(FlowStart started);

  void open(JobId job, const Allocation& allocation, double bound_Bps) override;
  void close(JobId job) override;
  // A paused ring's flows are suspended: SimGrid keeps them, with their bounds, out of sharing.
  void pause(JobId job) override;
  void resume(JobId job) override;
  double rate_Bps(JobId job) const override;
  double lone_flow_share() const override;
  // Rings still open (none once every job has ended).
  std::size_t open_rings() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace acmesim
