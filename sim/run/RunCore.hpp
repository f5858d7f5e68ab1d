#pragma once
// The pieces of a run that most of its components use: the topology, the clock, the publisher of
// state changes, the scheduler's inbox, the job table and the GPU holders. References to what the
// run owns, copied into each component, so that a component's constructor names the run's common
// pieces once and then only what is its own.
#include "models/cluster/Topology.hpp"
#include "sim/run/Clock.hpp"
#include "sim/run/GpuHolders.hpp"
#include "sim/run/JobTable.hpp"
#include "sim/run/RunEvents.hpp"
#include "sim/run/SchedulerInbox.hpp"

namespace acmesim {

struct RunCore {
  const Topology& topology;
  const Clock& clock;
  const RunEvents& events;
  SchedulerInbox& inbox;
  JobTable& jobs;
  GpuHolders& holders;

  double now() const { return clock.now(); }
};

} // namespace acmesim
