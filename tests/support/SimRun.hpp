#pragma once
// Runs a hand-built workload through the real engine. SimGrid allows one engine per process:
// call at most once per TEST_CASE (ctest runs each TEST_CASE in its own process). The hand
// computations of these runs leave the network model out (shared cables, SimGrid's latency): a
// test of the network turns it on (network.model = Flows) and works out its figures with it.
#include "sim/engine/Simulation.hpp"
#include "tests/support/TinyCluster.hpp"

namespace acmesim::testing {

inline Scenario hand_built_scenario(const ClusterSpec& cluster, const std::string& scheduler,
                                    const std::string& placement = "pack")
{
  Scenario s;
  s.name = "hand-built";
  s.seed = 1;
  s.cluster = cluster;
  s.scheduler.name = scheduler;
  s.scheduler.placement = placement;
  s.workload.trace = TraceSpec{};
  s.workload.trace->path = "hand-built";
  s.source = "test";
  s.network.model = NetworkModel::Off;
  return s;
}

inline Workload hand_built_workload(std::vector<Job> jobs)
{
  Workload w;
  w.jobs = std::move(jobs);
  w.source = "hand-built";
  normalise_workload(w);
  return w;
}

} // namespace acmesim::testing
