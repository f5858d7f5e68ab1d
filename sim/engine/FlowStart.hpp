#pragma once
// A flow the platform just started, as LinkLoads and PlatformRings follow it: its two ends, its
// comm (whose state says when it ended) and its action (whose rate is what it gets while it runs).
// PlatformTransfers reports each flow it starts.
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

// The network actions of comms started from maestro: SimGrid puts a comm's action last in its
// network model's started set (the public API gives no other way to reach it). The model is looked
// up once, at the first flow.
class StartedActions {
public:
  // The action of `comm`, started just now; throws if it is not the last one.
  simgrid::kernel::resource::Action& of(const simgrid::s4u::Comm& comm) const;

private:
  mutable simgrid::kernel::resource::Model* model_ = nullptr;
};

} // namespace acmesim
