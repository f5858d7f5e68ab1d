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
#include "sim/engine/LinkLoads.hpp"
#include "sim/config/Scenario.hpp"
#include "sim/run/Run.hpp"

#include <functional>
#include <memory>
#include <optional>

namespace acmesim {

struct RunResult {
  RunResult();
  ~RunResult();
  RunResult(RunResult&&) noexcept;

  std::unique_ptr<Topology> topology;
  std::unique_ptr<Scheduler> scheduler;
  std::unique_ptr<RecoveryPolicy> recovery;
  std::unique_ptr<FailureSource> failures;
  std::unique_ptr<Run> run;
  double makespan_s = 0;
  std::optional<NetworkLoad> network_load; // with the network model on
  double wall_seconds = 0; // for the terminal only: never written to result files
  // Whether SimGrid's timer kept time; false: the run asked for no flows and kept time itself.
  bool simgrid_kept_time = false;
};

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
