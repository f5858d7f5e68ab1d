#pragma once
// How loaded each link of the platform was over a run under the flows model (docs/network.md):
// the time integral of each link direction's usage (the rates of the flows on it as SimGrid shares
// it, the acknowledgement cross traffic of flows the other way included) over its bandwidth, and for the nodes' compute
// cables how long each direction sat idle or above a quarter of its bandwidth, the figures Acme
// reports for its InfiniBand NICs. Usage changes only when sharing does, so the engine samples
// the links each time it reads new rates; only the links of flows whose rate changed (started,
// ended, or shared anew) are read again, the others keep their usage.
#include "sim/engine/FlowStart.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/run/NetworkLoad.hpp"

#include <memory>

namespace acmesim {

class LinkLoads {
public:
  explicit LinkLoads(const Platform& platform);
  ~LinkLoads();
  LinkLoads(const LinkLoads&) = delete;
  LinkLoads& operator=(const LinkLoads&) = delete;

  // Call for each flow started: its route and, with cross traffic, the route back carry it.
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
