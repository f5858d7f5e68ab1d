#pragma once
// What one NCCL-style collective costs on a set of identical GPU nodes: a latency-bandwidth (α-β)
// model per operation, in nccl-tests' terms (time, algorithm bandwidth, bus bandwidth), with the
// NVLink and NIC efficiencies and step latencies fitted to published nccl-tests measurements of
// A100 nodes (docs/network.md, "Collectives": each point, its source, which points set which value
// and how far the model is from the others). Engine-free.
//
// A collective of `bytes` takes
//   time = steps x step latency + bus bytes / bus bandwidth
// (the shape of Thakur, Rabenseifner and Gropp, IJHPCA 2005, and of NCCL's own tuning model):
//  - bus bytes: what each rank moves, nccl-tests' bus factor times `bytes`: 2(n-1)/n for
//    all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for send/receive
//    (nccl-tests' doc/PERFORMANCE.md), n the ranks;
//  - rings (all-reduce, all-gather, reduce-scatter): 2(n-1) steps for all-reduce and n-1 for the
//    others, each paced by its slowest hop (a NIC hop once the ring leaves the node); the bus
//    bandwidth is a GPU's NVLink inside a node, and across nodes the narrower of that and the
//    node's compute NICs together (each ring crosses a node's boundary once, and the rings spread
//    over the NICs), each at its tier's efficiency;
//  - all-to-all sends to every other rank at once: n-1 steps, and the longer of each GPU's NVLink
//    share ((g-1)/n of its buffer) and each node's NICs carrying the (N-1)/N of its g GPUs'
//    buffers bound elsewhere, at the all-to-all's own NIC efficiency (many small transfers);
//  - send/receive (nccl-tests' sendrecv: each rank to the next): one step, at NVLink's
//    point-to-point efficiency inside a node, across nodes on one NIC.
//  - trees (all-reduce across nodes): NCCL's double binary tree over the nodes, a chain of GPUs
//    inside each: 2((g-1) NVLink steps + ceil(log2 N) network steps), up and down, at the ring's
//    bus bandwidth times the tree's factor (NCCL's tuning model gives trees 92% of the ring's). An
//    all-reduce takes whichever of ring and tree is faster, as NCCL picks by its own model: trees
//    win small messages on many nodes, through their logarithmic latency.
#include "models/common/EnumNames.hpp"

#include <cstdint>

namespace acmesim {

enum class CollectiveOp : std::uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv };
constexpr auto enum_names(CollectiveOp)
{
  return names_in_order<CollectiveOp>("allreduce", "allgather", "reducescatter", "alltoall", "sendrecv");
}

enum class CollectiveAlgorithm : std::uint8_t { Ring, Tree, Direct };
constexpr auto enum_names(CollectiveAlgorithm) { return names_in_order<CollectiveAlgorithm>("ring", "tree", "direct"); }

// One tier of links: the latency of one step over it, and the share of its nominal bandwidth that
// a large ring's bus bandwidth reaches.
struct TierCalibration {
  double step_latency_s = 0;
  double efficiency = 1;
};

struct CollectiveCalibration {
  TierCalibration nvlink;  // inside a node, per GPU
  TierCalibration network; // between nodes, per node over its compute NICs
  double nvlink_p2p_efficiency = 1;     // one GPU sending to another over NVLink
  double network_alltoall_efficiency = 1; // a node's NICs under an all-to-all
  double tree_bandwidth_factor = 1;       // a tree all-reduce's bus bandwidth over the ring's
};

// The calibration of 8-A100 nodes (NVLink 3 through NVSwitch) with HDR InfiniBand NICs: each value,
// the points it was fitted to and their sources, in Collectives.cpp and docs/network.md.
CollectiveCalibration a100_hdr_calibration();

// The nodes a collective runs on: all alike, all their GPUs taking part.
struct CollectiveNodes {
  int nodes = 1;
  int gpus_per_node = 8;
  double nvlink_Bps = 0; // per GPU, each way (nominal)
  int nics = 1;          // compute NICs per node
  double nic_Bps = 0;    // per NIC, each way (nominal)

  int ranks() const { return nodes * gpus_per_node; }
};

// One tier as a collective's steps see it: the latency of a step and the bus bandwidth. Every
// collective here takes `steps x step_s + bus bytes / busbw_Bps` on the tier that paces it.
struct TierPace {
  double step_s = 0;
  double busbw_Bps = 0;

  double time_s(double steps, double bus_bytes) const { return steps * step_s + bus_bytes / busbw_Bps; }
};

// A GPU's NVLink (`nvlink_Bps` nominal, each way) and a node's compute NICs together (`nics_Bps`
// nominal) at the calibration's step latencies and efficiencies.
TierPace nvlink_pace(const CollectiveCalibration& calibration, double nvlink_Bps);
TierPace network_pace(const CollectiveCalibration& calibration, double nics_Bps);

struct CollectiveTime {
  double time_s = 0;
  double algbw_Bps = 0; // bytes / time, as nccl-tests prints it
  double busbw_Bps = 0; // algbw times the operation's bus factor
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
};

// nccl-tests' bus bandwidth over algorithm bandwidth for `op` among `ranks`.
double bus_factor(CollectiveOp op, int ranks);

// The time of `op` on `bytes`: nccl-tests' size, the whole buffer (for all-gather the gathered
// one, for reduce-scatter the one reduced). Throws std::invalid_argument without two GPUs,
// bandwidths or bytes.
CollectiveTime collective_time(CollectiveOp op, double bytes, const CollectiveNodes& on,
                               const CollectiveCalibration& calibration);

} // namespace acmesim
