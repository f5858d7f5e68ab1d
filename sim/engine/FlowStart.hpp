#pragma once
// A flow the platform just started, as LinkLoads follows it: its two ends, its comm (whose state
// says when it ended) and its action (whose rate is what it gets while it runs). Both flow services,
// transfers and rings, report each flow they start.
#include <simgrid/forward.h>
#include <simgrid/s4u/Comm.hpp>

#include <functional>

namespace acmesim {

struct StartedFlow {
  const simgrid::s4u::Host* from;
  const simgrid::s4u::Host* to;
  simgrid::s4u::CommPtr comm;
  const simgrid::kernel::resource::Action* action; // valid while the comm is started
};

using FlowStart = std::function<void(const StartedFlow&)>;

// The network action of a comm started just now from maestro: SimGrid puts it last in its network
// model's started set (the public API gives no other way to reach it). Throws if it is not there.
simgrid::kernel::resource::Action& action_of_started(const simgrid::s4u::Comm& comm);

} // namespace acmesim
