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

// LV08's bandwidth factor (SimGrid's default for its default model), set explicitly under the flows
// model: a flow's rate is its share of the links times this factor, so a bound in bytes per second
// is divided by it, and a link's usage (in shares) multiplied by it is bytes per second.
inline constexpr double FLOW_BANDWIDTH_FACTOR = 0.97;

// SimGrid's network model settings under the flows model, set on the engine before the platform is
// built (docs/network.md): the bandwidth factor named explicitly, since bounds are written in it, and
// no latency factor, since a flow's rate is 0 until its latency has passed and collectives are a
// fluid here.
void configure_flow_model();

} // namespace acmesim
