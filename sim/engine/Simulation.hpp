#pragma once
// Runs one scenario on SimGrid: builds the platform from the topology and drives the Run
// from one maestro-level kernel timer (no actors), armed at the next event time. This design
// was measured fastest on SimGrid 3.32 (../shared/reference/simgrid.md §3.2: about 1.6 s per
// million jobs) and keeps the order of same-time events ours, not the engine's.
// A run that moves no storage data (no checkpoints, failures or evaluation trials) keeps time
// itself instead, without SimGrid's timer: the same instants in the same order, without the
// engine's work per step. With the network model on it still builds the platform, for its rings'
// routes and links (PlatformRings); with it off, not even that.
// SimGrid allows one engine per process: call run_simulation at most once per process unless
// the runs before built no platform (the network model off and no storage data).
#include "models/workload/Job.hpp"
#include "sim/config/Scenario.hpp"
#include "sim/run/RunResult.hpp"

#include <functional>

namespace acmesim {

struct RunOptions {
  // Called now and then with (simulated seconds, jobs ended, jobs in all) for progress display.
  std::function<void(double, std::size_t, std::size_t)> progress;
  bool engine_logs = false; // let SimGrid print its own informational logs
  // Keep time on SimGrid even for a run that moves no storage data, which otherwise keeps time
  // itself with the same results (a test shows that they agree, with the network model on and off).
  bool always_on_simgrid = false;
};

RunResult run_simulation(const Scenario& scenario, const Workload& workload, const RunOptions& options = {});

} // namespace acmesim
