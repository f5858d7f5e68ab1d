#pragma once
// RingService on the SimGrid platform. A job's ring is a flow for each hop of its layout (each lane
// of a domain to the same lane of the next; under ECMP routing, one per flow endpoint of the two
// nodes), each with its share of a domain's bytes (PlatformBuilder.hpp, RingLayout.hpp), routed on the platform but not started there: what a ring gets
// while it sends is solved link by link over the links its flows cross (models/network/
// FabricSharing), each link's capacity as a ring's flow alone gets it, shared among the bursts of the
// rings on it and the other flows on it (storage, read from their SimGrid actions) as steady
// senders. Where a storage flow crosses a link that rings cross, the link's SimGrid bandwidth is
// lowered by what the rings hold of it on average (their mean demand, up to their max-min share
// beside the storage flows: rings_hold_Bps), so storage flows get what the rings leave them
// without SimGrid carrying a flow per ring (docs/network.md, "Rings on the platform").
#include "sim/engine/FlowStart.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/run/RingService.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace acmesim {

// What a ring's flows put on each link they cross: per link, their weight on it, the number of its
// flows routed over it (their acknowledgements count for nothing, since a ring's efficiency, NCCL's
// measured bus bandwidth, already pays every overhead of the wire), so a link carries weight x a
// flow's rate.
using RingLoad = std::vector<std::pair<const simgrid::s4u::Link*, double>>;

// A sending ring's bursts, per flow: the bytes one flow carries a step, its rate while it sends and
// the step (so each flow sends for bytes / rate of every step), and the links it loads.
struct RingTrain {
  double flow_bytes = 0;
  double flow_rate_Bps = 0;
  double step_s = 0;
  const RingLoad* load = nullptr; // the ring's, valid while it is open
  std::uint64_t opening = 0;      // which ring of the platform's this is (a job may reopen one)

  bool operator==(const RingTrain&) const = default;
  // What one flow carries on average.
  double mean_Bps() const { return step_s > 0 ? flow_bytes / step_s : 0; }
};
// Trains by job, in job order.
using RingTrains = std::vector<std::pair<JobId, RingTrain>>;

class PlatformRings final : public RingService {
public:
  // `changed()` is called when sharing changes: a ring opens, closes, pauses or resumes, or the
  // bandwidth left to storage flows moves. A ring's flows reach `ring_efficiency` of a link's
  // bandwidth with the link to themselves (the collective model's network efficiency, NCCL's bus
  // bandwidth over the NICs'), and share that.
  PlatformRings(const Platform& platform, PhaseAlignment phases, double ring_efficiency,
                std::function<void()> changed);
  ~PlatformRings() override;

  // Call for each flow the other services start (storage transfers): it shares the links it
  // crosses with the rings' bursts while it runs.
  void other_flow_started(const StartedFlow& flow);

  void open(JobId job, const RingLayout& layout, const RingTraffic& traffic) override;
  void close(JobId job) override;
  // A paused ring sends nothing and holds nothing: it keeps its routes for when it resumes.
  void pause(JobId job) override;
  void resume(JobId job) override;
  std::map<JobId, double> sending_rates() override;
  std::vector<CommLink> links(JobId job) const override;
  // The bursts of every ring that sends (paused ones do not), in job order.
  RingTrains trains();
  // Rings still open (none once every job has ended).
  std::size_t open_rings() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace acmesim
