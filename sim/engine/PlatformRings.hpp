#pragma once
// RingService on the SimGrid platform: a job's ring is one open-ended flow from each of its nodes
// to the next (under ECMP routing, one per flow endpoint of the two nodes, each with its share of
// the hop's bytes: PlatformBuilder.hpp), started from maestro and capped (Action::set_bound) at the
// job's mean demand, so that storage flows share NICs and fabric cables with the rings as SimGrid's
// bandwidth sharing decides. What a ring gets while it sends is solved link by link over the links its flows cross
// (models/network/FabricSharing): each link's capacity as one flow alone gets it, the bursts of the
// rings on it, and the other flows on it (storage, read from their actions) as steady senders.
// SimGrid solves sharing at the start of a round: rates read at the date of a change are those
// from before it, so the engine reads them in the round after (Simulation's TimerDriver).
#include "sim/engine/FlowStart.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/run/RingService.hpp"

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace acmesim {

// A sending ring's bursts, per flow: the bytes one flow carries a step, its rate while it sends and
// the step (so each flow sends for bytes / rate of every step).
struct RingTrain {
  double flow_bytes = 0;
  double flow_rate_Bps = 0;
  double step_s = 0;

  bool operator==(const RingTrain&) const = default;
};
// Trains by job, in job order.
using RingTrains = std::vector<std::pair<JobId, RingTrain>>;

class PlatformRings final : public RingService {
public:
  // `changed()` is called when a ring opens or closes (sharing changes).
  PlatformRings(const Platform& platform, PhaseAlignment phases, std::function<void()> changed);
  ~PlatformRings() override;

  // `started(from, to)` for each flow started from now on.
  void watch_flow_starts(FlowStart started);

  // Call for each flow the other services start (storage transfers): it shares the links it
  // crosses with the rings' bursts while it runs.
  void other_flow_started(const StartedFlow& flow);

  void open(JobId job, const Allocation& allocation, const RingTraffic& traffic) override;
  void close(JobId job) override;
  // A paused ring's flows are suspended: SimGrid keeps them, with their bounds, out of sharing.
  void pause(JobId job) override;
  void resume(JobId job) override;
  std::map<JobId, double> sending_rates() override;
  // The bursts of every ring that sends (paused ones do not), in job order.
  RingTrains trains();
  double lone_flow_share() const override;
  // Rings still open (none once every job has ended).
  std::size_t open_rings() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace acmesim
