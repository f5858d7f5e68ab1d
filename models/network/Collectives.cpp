#include "models/network/Collectives.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace acmesim {

// Fitted to published nccl-tests runs: the rows marked `fit` of configs/collectives/
// a100-hdr-published.csv, by fit_collectives (a test checks that it gives these values back);
// docs/network.md has the table with every source and the model's gap at the other rows:
//  - NVLink, all-reduce on one node of 8 A100-SXM-80GB (Azure NDm A100 v4, SuperBench v0.4 baseline,
//    means over 729 nodes: github.com/microsoft/superbench-results, v0.4.0/Azure-NDmv4-A100/
//    baseline.json): 24.57 GB/s of bus bandwidth at 1 MiB and 235.65 at 8 GiB give a step of
//    4.78 us and 78.6% of 300 GB/s;
//  - network, all-reduce on 3 nodes of 8 A100-SXM4-40GB and 4 HDR NICs (nccl-tests issue #119):
//    85.30 GB/s at 23,068,680 B and 93.76 at 85,983,240 B give a step of 1.39 us and 97.3% of the
//    NICs' 100 GB/s (about what NCCL's developers quote for a perfect HDR setup: 24 GB/s a NIC,
//    nccl-tests issue #160). The step is the intercept of large messages, where NCCL pipelines a
//    ring's steps: it says little of small messages across nodes;
//  - NVLink point to point, sendrecv on one node of 8 A100 (github.com/li-plus/playground,
//    cuda/nccl.md): 195.10 GB/s at 1 GiB gives 65.1% of 300 GB/s;
//  - all-to-all across nodes, on 2 nodes of 8 A100 with 8 HDR NICs (MSCCL++ NDmv4 performance,
//    NCCL 2.17.1: github.com/microsoft/mscclpp, docs/performance-ndmv4.md): 37.80 GB/s at 1 GiB
//    gives 80.7% of the NICs' 200 GB/s;
//  - trees: no published A100 + HDR measurement tells tree from ring, so their bandwidth is NCCL's
//    own model's: a tree all-reduce at 0.92 of the ring's bandwidth (src/graph/tuning.cc, NCCL 2.23
//    to 2.30). Their steps take the tiers' latencies above.
CollectiveCalibration a100_hdr_calibration()
{
  CollectiveCalibration c;
  c.nvlink = {4.78e-6, 0.786};
  c.network = {1.39e-6, 0.973};
  c.nvlink_p2p_efficiency = 0.651;
  c.network_alltoall_efficiency = 0.807;
  c.tree_bandwidth_factor = 0.92;
  return c;
}

TierPace nvlink_pace(const CollectiveCalibration& calibration, double nvlink_Bps)
{
  return {calibration.nvlink.step_latency_s, calibration.nvlink.efficiency * nvlink_Bps};
}

TierPace network_pace(const CollectiveCalibration& calibration, double nics_Bps)
{
  return {calibration.network.step_latency_s, calibration.network.efficiency * nics_Bps};
}

namespace {

// A step of a ring over the nodes and its bus bandwidth: NVLink inside one node; across nodes a
// step waits for its NIC hop, and the bandwidth is the narrower of a GPU's NVLink and the node's
// NICs together.
TierPace ring_pace(const CollectiveNodes& on, const CollectiveCalibration& c)
{
  const TierPace nvlink = nvlink_pace(c, on.nvlink_Bps);
  if (on.nodes == 1)
    return nvlink;
  const TierPace network = network_pace(c, on.nics * on.nic_Bps);
  return {network.step_s, std::min(nvlink.busbw_Bps, network.busbw_Bps)};
}

double ring_time(CollectiveOp op, double bytes, const CollectiveNodes& on, const CollectiveCalibration& c)
{
  const int n = on.ranks();
  const double steps = op == CollectiveOp::AllReduce ? 2.0 * (n - 1) : n - 1.0;
  return ring_pace(on, c).time_s(steps, bus_factor(op, n) * bytes);
}

// NCCL's tree all-reduce across nodes: up a chain of the node's GPUs and a binary tree of the
// nodes, then down again, at the tree's share of the ring's bus bandwidth.
double tree_time(double bytes, const CollectiveNodes& on, const CollectiveCalibration& c)
{
  const int n = on.ranks();
  const double levels = std::ceil(std::log2(static_cast<double>(on.nodes)));
  const double latency_s = 2 * ((on.gpus_per_node - 1) * c.nvlink.step_latency_s + levels * c.network.step_latency_s);
  const double busbw_Bps = c.tree_bandwidth_factor * ring_pace(on, c).busbw_Bps;
  return latency_s + bus_factor(CollectiveOp::AllReduce, n) * bytes / busbw_Bps;
}

double all_to_all_time(double bytes, const CollectiveNodes& on, const CollectiveCalibration& c)
{
  const int n = on.ranks();
  const double g = on.gpus_per_node;
  const double nvlink_s = bytes * (g - 1) / n / (c.nvlink.efficiency * on.nvlink_Bps);
  const double network_s = on.nodes > 1 ? g * bytes * (on.nodes - 1) / on.nodes /
                                              (c.network_alltoall_efficiency * on.nics * on.nic_Bps)
                                        : 0;
  return (n - 1) * ring_pace(on, c).step_s + std::max(nvlink_s, network_s);
}

double send_recv_time(double bytes, const CollectiveNodes& on, const CollectiveCalibration& c)
{
  const double nvlink = c.nvlink_p2p_efficiency * on.nvlink_Bps;
  if (on.nodes == 1)
    return c.nvlink.step_latency_s + bytes / nvlink;
  return c.network.step_latency_s + bytes / std::min(nvlink, c.network.efficiency * on.nic_Bps);
}

} // namespace

double bus_factor(CollectiveOp op, int ranks)
{
  const double n = ranks;
  switch (op) {
    case CollectiveOp::AllReduce:
      return 2 * (n - 1) / n;
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllToAll:
      return (n - 1) / n;
    case CollectiveOp::SendRecv:
      return 1;
  }
  return 1;
}

CollectiveTime collective_time(CollectiveOp op, double bytes, const CollectiveNodes& on,
                               const CollectiveCalibration& calibration)
{
  if (on.nodes < 1 || on.gpus_per_node < 1 || on.ranks() < 2 || !(on.nvlink_Bps > 0) || on.nics < 1 ||
      !(on.nic_Bps > 0) || !(bytes > 0))
    throw std::invalid_argument("collective_time: needs two GPUs or more, bandwidths > 0 and bytes > 0");
  CollectiveTime t;
  switch (op) {
    case CollectiveOp::AllReduce:
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
      t.time_s = ring_time(op, bytes, on, calibration);
      t.algorithm = CollectiveAlgorithm::Ring;
      if (op == CollectiveOp::AllReduce && on.nodes > 1)
        if (const double tree_s = tree_time(bytes, on, calibration); tree_s < t.time_s) {
          t.time_s = tree_s;
          t.algorithm = CollectiveAlgorithm::Tree;
        }
      break;
    case CollectiveOp::AllToAll:
      t.time_s = all_to_all_time(bytes, on, calibration);
      t.algorithm = CollectiveAlgorithm::Direct;
      break;
    case CollectiveOp::SendRecv:
      t.time_s = send_recv_time(bytes, on, calibration);
      t.algorithm = CollectiveAlgorithm::Direct;
      break;
  }
  t.algbw_Bps = bytes / t.time_s;
  t.busbw_Bps = t.algbw_Bps * bus_factor(op, on.ranks());
  return t;
}

} // namespace acmesim
