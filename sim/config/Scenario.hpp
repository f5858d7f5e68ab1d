#pragma once
// A what-if scenario, typed and validated: what `acmesim run` simulates.
#include "models/cluster/ClusterSpec.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace acmesim {

struct SchedulerSpec {
  std::string name = "fifo";
  std::string placement = "pack";
  // Parameters of the chosen scheduler, validated against PolicyCatalogue, with every
  // declared parameter present (defaults filled in).
  std::map<std::string, double> params;
};

struct Scenario {
  std::string name;          // default: file stem, or "default" for the embedded scenario
  std::uint64_t seed = 42;
  ClusterSpec cluster;
  WorkloadSpec workload;
  SchedulerSpec scheduler;
  std::string source;        // scenario path, or "<embedded default>"
};

} // namespace acmesim
