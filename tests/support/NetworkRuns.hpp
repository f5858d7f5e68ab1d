#pragma once
// The training jobs of the whole runs with the network model on, worked out by hand
// (tests/sim/engine/test_network_sharing.cpp, test_view_communication.cpp): their model, their
// step at a rate, and the tiny one-NIC pods they run on.
#include "tests/support/SimRun.hpp"

#include <string>

namespace acmesim::testing {

// Their model: 12e6 parameters (model_sizes {1000 GPUs: 0.012 B}) with hidden_per_layer 1, so
// hidden = cbrt(12e6 / 12) = 100 = layers; 1000 tokens and 1 s of compute a step, nothing hiding
// the gradient ring (dp_overlap 0). Compute is what the training model's end-to-end step leaves on
// the reference fabric (compute_within_step), so each case sets that step (checkpoint.step_time_s)
// to 1 s of compute plus its jobs' communication there: `mfu_step_s` below. Nodes of 8 GPUs: TP 8
// inside a node, DP = the job's nodes n.
//  - TP bytes per GPU: 4 all-reduces x 100 layers x 2(8-1)/8 of (1000 / n tokens x 100 x 2 bytes)
//    = 1.4e8 / n, at 300 GB/s of NVLink.
//  - IB bytes per node: the ring moves 2(n-1)/n of the node's 12e6 x 2 bytes of gradients
//    (3e6 per GPU's TP shard, times 8 shards): 24e6 for n = 2, 36e6 for n = 4.
// Collectives are ideal (no latency, full bandwidth): the ring gets all of a link it has alone.
// The reference is the pod itself (fabric slowdown 1): the ring gets the whole node cable.
// With nothing hidden the whole ring is on the critical path: step = 1 + TP + IB bytes / rate.
// The jobs' phases are aligned (lock-step) unless a case says otherwise: sharing is then max-min.
inline constexpr double TINY_NIC_Bps = 8e6; // nic_bandwidth_Gbps 0.064

inline double tp_s(int n) { return 1.4e8 / n / 300e9; }
inline double ib_bytes(int n) { return 2.0 * (n - 1) / n * 24e6; }
inline double step_s(int n, double ib_Bps) { return 1 + tp_s(n) + ib_bytes(n) / ib_Bps; }
// Alone, a ring gets 8e6 B/s: a step of 1 + 2.333e-4 + 24e6 / 8e6 = 4.00023 s for n = 2, of
// 1 + 1.167e-4 + 36e6 / 8e6 = 5.50012 s for n = 4.
// A job's slowdown when its ring gets `ib_Bps` while it sends: its step then over its step alone.
inline double slowdown_at(int n, double ib_Bps) { return step_s(n, ib_Bps) / step_s(n, TINY_NIC_Bps); }

// The end-to-end step of a job on `n` nodes whose ring gets `reference_Bps` alone on the reference
// fabric: what 1 s of compute gives there.
inline double mfu_step_s(int n, double reference_Bps) { return step_s(n, reference_Bps); }

// By default the step of 1 s of compute for the two-node jobs, timed on the pod itself.
inline Scenario network_scenario(const ClusterSpec& cluster, const std::string& placement,
                                 double step_time_s = mfu_step_s(2, TINY_NIC_Bps))
{
  Scenario s = hand_built_scenario(cluster, "fifo", placement);
  s.network.model = NetworkModel::Flows;
  s.network.collectives = CollectiveCalibration{}; // ideal: no latency, every link at its bandwidth
  s.network.phases = PhaseAlignment::Aligned;
  s.network.comm.hidden_per_layer = 1;
  s.network.comm.dp_overlap = 0;
  s.checkpoint.model_sizes = {{1000, 0.012}};
  s.checkpoint.tokens_per_step = 1000;
  s.checkpoint.step_time_s = step_time_s;
  return s;
}

// A pod of `nodes` one-NIC nodes of 8e6 B/s, `per_leaf` to a leaf of `per_leaf + 1` ports: one
// uplink per leaf, hence one spine, of `port_Bps`. Oversubscribed per_leaf : 1 by port count.
inline ClusterSpec one_spine_cluster(int nodes, int per_leaf, double port_Bps)
{
  ClusterSpec cluster = tiny_cluster(nodes, per_leaf);
  PodSpec& pod = cluster.pods[0];
  pod.compute_nics = 1;
  pod.nic_bandwidth_Gbps = TINY_NIC_Bps * 8 / 1e9;
  pod.fabric.leaf_radix = per_leaf + 1;
  pod.fabric.port_bandwidth_Gbps = port_Bps * 8 / 1e9;
  return cluster;
}

} // namespace acmesim::testing
