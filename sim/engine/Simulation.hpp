#pragma once
// Runs one scenario on SimGrid: builds the platform from the topology and drives the Run
// from one maestro-level kernel timer (no actors), armed at the next event time. This design
// was measured fastest on SimGrid 3.32 (../shared/reference/simgrid.md §3.2: about 1.6 s per
// million jobs) and keeps the order of same-time events ours, not the engine's.
// A run that asks nothing of the platform (no storage flows: no checkpoints, failures or
// evaluation trials; the network model off) keeps time itself instead, without SimGrid: the
// same instants in the same order, without the engine's work per step.
// SimGrid allows one engine per process: call run_simulation at most once per process unless
// the runs before keep time themselves.
#include "models/workload/Job.hpp"
#include "sim/config/Scenario.hpp"
#include "sim/run/RunResult.hpp"

#include <functional>

namespace acmesim {

struct RunOptions {
  // Called now and then with (simulated seconds, jobs ended, jobs in all) for progress display.
  std::function<void(double, std::size_t, std::size_t)> progress;
  bool engine_logs = false; // let SimGrid print its own informational logs
  // Keep time on SimGrid even for a run that moves no data with the network model off, which
  // otherwise keeps time itself with the same results (a test shows that they agree).
  bool always_on_simgrid = false;
};

RunResult run_simulation(const Scenario& scenario, const Workload& workload, const RunOptions& options = {});

} // namespace acmesim
