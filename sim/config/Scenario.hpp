#pragma once
// A what-if scenario, typed and validated: what `acmesim run` simulates.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/cluster/ClusterSpec.hpp"
#include "models/evaluation/EvalSpec.hpp"
#include "models/failure/FailureEvent.hpp"
#include "models/network/NetworkSpec.hpp"
#include "models/power/PowerSpec.hpp"
#include "models/workload/WorkloadSpec.hpp"
#include "sim/policy_api/PolicySpec.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace acmesim {

// Optional result files and the resolution of utilisation.csv (docs/outputs.md).
struct OutputSpec {
  bool timeline = false;           // also write timeline.json
  double utilisation_bin_s = 3600; // width of the bins of utilisation.csv (> 0)
};

struct Scenario {
  std::string name;          // default: file stem, or "default" for the embedded scenario
  std::uint64_t seed = 42;
  ClusterSpec cluster;
  WorkloadSpec workload;
  SchedulerSpec scheduler;
  FailureSpec failures;                       // source None: no failures
  std::vector<FailureEvent> recorded_failures; // read at load time when failures.recorded is set
  CheckpointSpec checkpoint;
  RecoverySpec recovery;
  EvalSpec evaluation; // evaluation campaigns added to the workload
  NetworkSpec network; // how training traffic shares the fabric (docs/network.md)
  PowerSpec power;     // what GPUs and servers draw (docs/energy.md)
  OutputSpec output;
  std::string source;        // scenario path, or "<embedded default>"
};

} // namespace acmesim
