#pragma once
// A finished run, as the engine hands it to the summary and the result files: the run with its
// records, what it ran on and with, and what the engine measured of the platform.
#include "models/cluster/Topology.hpp"
#include "models/failure/FailureEvent.hpp"
#include "sim/policy_api/RecoveryPolicy.hpp"
#include "sim/policy_api/SchedulerApi.hpp"
#include "sim/run/NetworkLoad.hpp"
#include "sim/run/Run.hpp"

#include <memory>
#include <optional>
#include <vector>

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
  // The jobs still queued when nothing was left to happen: the scheduler never started them (or
  // never restarted them). Empty in a run that finished.
  std::vector<JobId> stalled;
  // Whether SimGrid's timer kept time; false: the run moved no storage data and kept time itself
  // (the rings of the network model, if on, use the platform's routes only: PlatformRings).
  bool simgrid_kept_time = false;
};

} // namespace acmesim
