#pragma once
// A bare SimGrid engine with the flow model, a platform and its rings, as run_simulation sets them
// up but without a run, for tests that open rings and read what they get; and the Acme pods they
// are built on. One engine per process: one RingBench per TEST_CASE.
#include "models/network/Collectives.hpp"
#include "sim/engine/FlowModel.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/engine/PlatformRings.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace acmesim::testing {

// What a ring's flow alone on a link gets of it: the collective model's network efficiency of the
// A100 + HDR calibration (NCCL's bus bandwidth over the NICs'), which scenarios use by default.
inline const double RING_SHARE = a100_hdr_calibration().network.efficiency;
// Far above any cable: a ring that asks this gets what the fabric gives it.
constexpr double UNCAPPED_Bps = 1e15;

// A ring that sends all the time (no compute) and as fast as the fabric lets it.
inline RingTraffic always_sending()
{
  RingTraffic t;
  t.burst.critical_bytes = 1;
  t.burst.peak_Bps = UNCAPPED_Bps;
  t.mean_Bps = UNCAPPED_Bps;
  return t;
}

inline double rate_of(PlatformRings& rings, JobId job) { return rings.sending_rates().at(job); }

// The engine, flow-model settings, platform and rings that run_simulation sets up, without a run:
// the tests open and close rings from kernel timers (as the run does) and read rates in later
// timers, one round or more after the change that set them, as the run reads them.
class RingBench {
public:
  // `ecmp_seed`: the seed of the hash of pods routed by ecmp.
  explicit RingBench(const ClusterSpec& cluster, std::uint64_t ecmp_seed = 0)
      : engine_("test"), configured_(configure()), topology_(cluster),
        platform_(build_platform(topology_, CableSharing::Duplex, ecmp_seed)),
        rings_(platform_, PhaseAlignment::Aligned, RING_SHARE, [] {})
  {
  }

  PlatformRings& rings() { return rings_; }
  const Platform& platform() const { return platform_; }
  const Topology& topology() const { return topology_; }
  template <class F> void at(double t, F f) { simgrid::kernel::timer::Timer::set(t, std::move(f)); }
  void run_until(double t) { engine_.run_until(t); }

private:
  static bool configure()
  {
    xbt_log_control_set("root.thres:warning");
    configure_flow_model();
    return true;
  }

  simgrid::s4u::Engine engine_;
  [[maybe_unused]] bool configured_;
  Topology topology_;
  Platform platform_;
  PlatformRings rings_;
};

// The ring over `nodes`, each an NVLink domain of its own (node i to node i+1).
inline RingLayout whole_nodes(const std::vector<NodeId>& nodes) { return node_ring(nodes); }

inline RingLayout first_nodes(int count)
{
  std::vector<NodeId> nodes(static_cast<std::size_t>(count));
  std::iota(nodes.begin(), nodes.end(), NodeId{0});
  return whole_nodes(nodes);
}

// The Kalos preset's node and fabric (configs/clusters/kalos.yaml): 8 GPUs, 4 HDR compute NICs
// (4 x 200 Gb/s = 100 GB/s a node), one storage NIC, 40-port HDR leaves, non-blocking: 20
// downlinks / 4 NICs = 5 nodes a leaf, 20 uplinks of 200 Gb/s (25 GB/s), so 20 spines.
inline PodSpec kalos_pod(int nodes)
{
  PodSpec pod;
  pod.name = "kalos";
  pod.nodes = nodes;
  pod.gpus_per_node = 8;
  pod.compute_nics = 4;
  pod.storage_nics = 1;
  pod.nic_bandwidth_Gbps = 200;
  pod.fabric.leaf_radix = 40;
  pod.fabric.spine_radix = 800;
  pod.fabric.oversubscription = 1.0;
  pod.fabric.port_bandwidth_Gbps = 200;
  return pod;
}

// The Seren preset's (configs/clusters/seren.yaml): one HDR NIC (25 GB/s) shared with storage,
// 40-port leaves, non-blocking: 20 nodes a leaf, 20 spines.
inline PodSpec seren_pod(int nodes)
{
  PodSpec pod = kalos_pod(nodes);
  pod.name = "seren";
  pod.compute_nics = 1;
  pod.storage_nics = 0;
  pod.fabric.spine_radix = 40;
  return pod;
}

inline ClusterSpec cluster_of(const PodSpec& pod)
{
  ClusterSpec spec;
  spec.name = pod.name;
  spec.pods = {pod};
  spec.storage.bandwidth_GBps = pod.nodes;
  return spec;
}

} // namespace acmesim::testing
