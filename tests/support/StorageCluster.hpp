#pragma once
// A cluster whose storage flows can be worked out by hand, and the ledger check every hand-built
// run makes. Storage flows run under SimGrid's default network model (LV08): one flow alone on a
// link gets 0.97 of its bandwidth, shared with the 5% of reverse traffic it causes
// (cross-traffic), so rate = bandwidth * 0.97 / 1.05. Latencies are 0 so that times are size / rate.
#include "sim/engine/Simulation.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

namespace acmesim::testing {

inline constexpr double LV08_EFFICIENCY = 0.97 / 1.05;
inline constexpr double NIC_BPS = 25e9; // 200 Gb/s

// `nodes` nodes of 8 GPUs on one leaf, each with its own storage NIC; no latencies.
inline ClusterSpec storage_cluster(int nodes, double storage_GBps = 588)
{
  ClusterSpec spec = tiny_cluster(nodes, nodes);
  spec.pods[0].storage_nics = 1;
  spec.pods[0].fabric.link_latency_us = 0;
  spec.storage.latency_us = 0;
  spec.storage.bandwidth_GBps = storage_GBps;
  return spec;
}

// Every GPU-second of the run is in the ledger: GPUs x makespan.
inline void check_ledger_total(const RunResult& r)
{
  CHECK(r.run->ledger().total_gpu_seconds() == Approx(r.topology->total_gpus() * r.makespan_s));
}

} // namespace acmesim::testing
