#pragma once
// How loaded each link of the platform was over a run under the flows model (docs/network.md):
// the time integral of each link direction's load over its bandwidth, and for the nodes' compute
// cables the share of windows of `nic_window_s` (Acme's 15 s samples) that read nothing and that
// read above a quarter of the bandwidth, the figures Acme reports for its InfiniBand NICs. A link's
// load is its storage flows' usage as SimGrid shares it (the acknowledgement cross traffic of
// flows the other way included) and the rings' mean on it (their trains: each flow's bytes a step
// over its step, times its flows there); in the windows a ring counts as what it is, a burst each
// step at the rate it gets while it sends (models/network/SampledLoad). Load changes only when
// sharing does, so the engine samples the links each time it reads new rates; only the links of
// storage flows whose rate changed (started, ended, or shared anew) and of rings whose bursts
// changed are read again, the others keep theirs.
#include "sim/engine/FlowStart.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/engine/PlatformRings.hpp"
#include "sim/run/NetworkLoad.hpp"

#include <functional>
#include <memory>

namespace acmesim {

class LinkLoads {
public:
  using Trains = std::function<RingTrains()>;
  // `trains()` gives the bursts of the rings that send at the time of a sample.
  LinkLoads(const Platform& platform, double nic_window_s, Trains trains);
  ~LinkLoads();
  LinkLoads(const LinkLoads&) = delete;
  LinkLoads& operator=(const LinkLoads&) = delete;

  // Call for each storage flow started: its route and, with cross traffic, the route back carry it.
  void flow_started(const StartedFlow& flow);
  // The rates SimGrid solved last hold from `t` on (call when they are fresh, booking them at the
  // date of the change they follow).
  void sample(double t);
  // The run ended at `t`: every link's load up to then.
  NetworkLoad finish(double t);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace acmesim
