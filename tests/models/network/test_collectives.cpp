// The collective model against hand-computed α-β cases and against the published nccl-tests points
// it was fitted to and judged by (docs/network.md, "Collectives", gives every source).
#include "models/network/Collectives.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace acmesim;

namespace {

constexpr double HDR_Bps = 25e9;       // 200 Gb/s
constexpr double NVLINK3_Bps = 300e9;  // per A100, each way
constexpr double MiB = 1 << 20;
constexpr double GiB = 1 << 30;

CollectiveNodes a100_nodes(int nodes, int nics)
{
  CollectiveNodes on;
  on.nodes = nodes;
  on.gpus_per_node = 8;
  on.nvlink_Bps = NVLINK3_Bps;
  on.nics = nics;
  on.nic_Bps = HDR_Bps;
  return on;
}

} // namespace

TEST_CASE("collectives: nccl-tests' bus factors")
{
  CHECK(bus_factor(CollectiveOp::AllReduce, 16) == Approx(2.0 * 15 / 16));
  CHECK(bus_factor(CollectiveOp::AllGather, 16) == Approx(15.0 / 16));
  CHECK(bus_factor(CollectiveOp::ReduceScatter, 8) == Approx(7.0 / 8));
  CHECK(bus_factor(CollectiveOp::AllToAll, 8) == Approx(7.0 / 8));
  CHECK(bus_factor(CollectiveOp::SendRecv, 8) == 1);
}

TEST_CASE("collectives: a 1 MiB and a 1 GiB all-reduce on 2 and 16 Kalos nodes, worked out by hand")
{
  // Across nodes a ring step takes 1.39 us and the bus bandwidth is the narrower of a GPU's NVLink
  // (0.786 x 300e9 = 235.8e9) and the node's four NICs (0.973 x 100e9 = 97.3e9): 97.3e9. n ranks
  // take 2(n-1) steps and move 2(n-1)/n of the buffer each.
  const CollectiveCalibration c = a100_hdr_calibration();
  const auto by_hand = [](int n, double bytes) { return 2.0 * (n - 1) * 1.39e-6 + 2.0 * (n - 1) / n * bytes / 97.3e9; };
  for (const int nodes : {2, 16})
    for (const double bytes : {MiB, GiB}) {
      INFO(nodes << " nodes, " << bytes << " bytes");
      const CollectiveTime t = collective_time(CollectiveOp::AllReduce, bytes, a100_nodes(nodes, 4), c);
      CHECK(t.time_s == Approx(by_hand(nodes * 8, bytes)));
      CHECK(t.algbw_Bps == Approx(bytes / t.time_s));
      CHECK(t.busbw_Bps == Approx(t.algbw_Bps * 2.0 * (nodes * 8 - 1) / (nodes * 8)));
      CHECK(t.algorithm == CollectiveAlgorithm::Ring);
    }
  // 2 nodes, 1 MiB: 30 steps (41.7 us) and 1.966e6 bytes (20.2 us): latency dominates, busbw 31.8e9.
  CHECK(collective_time(CollectiveOp::AllReduce, MiB, a100_nodes(2, 4), c).busbw_Bps == Approx(31.77e9).epsilon(1e-3));
  // 16 nodes, 1 GiB: 254 steps (353 us) against 2.097e9 bytes (21.6 ms): bandwidth dominates.
  CHECK(collective_time(CollectiveOp::AllReduce, GiB, a100_nodes(16, 4), c).busbw_Bps ==
        Approx(95.7e9).epsilon(1e-3));
}

TEST_CASE("collectives: an all-to-all across two nodes on one NIC a node takes four times as long as on four")
{
  // Each node's NICs carry 8 GPUs x 1 GiB x 1/2 = 4 GiB at 0.807 of their bandwidth: 25e9 on one
  // NIC, 100e9 on four; 15 steps of 1.39 us on top.
  const CollectiveCalibration c = a100_hdr_calibration();
  const double one = collective_time(CollectiveOp::AllToAll, GiB, a100_nodes(2, 1), c).time_s;
  const double four = collective_time(CollectiveOp::AllToAll, GiB, a100_nodes(2, 4), c).time_s;
  CHECK(one == Approx(15 * 1.39e-6 + 4 * GiB / (0.807 * 25e9)));
  CHECK(four == Approx(15 * 1.39e-6 + 4 * GiB / (0.807 * 100e9)));
  CHECK(one / four == Approx(4).epsilon(1e-3));
  // On one node the NVLink share of each GPU sets it: 1 GiB x 7/8 at 0.786 x 300e9.
  CHECK(collective_time(CollectiveOp::AllToAll, GiB, a100_nodes(1, 4), c).time_s ==
        Approx(7 * 4.82e-6 + GiB * 7 / 8 / (0.786 * 300e9)));
}

TEST_CASE("collectives: bad shapes are refused")
{
  const CollectiveCalibration c = a100_hdr_calibration();
  CollectiveNodes lone = a100_nodes(1, 1);
  lone.gpus_per_node = 1;
  CHECK_THROWS_AS(collective_time(CollectiveOp::AllReduce, MiB, lone, c), std::invalid_argument);
  CHECK_THROWS_AS(collective_time(CollectiveOp::AllReduce, 0, a100_nodes(2, 4), c), std::invalid_argument);
}

// Every published point of docs/network.md's table, as its source printed it (bus bandwidth in
// GB/s). `fitted`: a point the calibration was solved from, which it must give back within 1%; the
// others it is judged by, within the 10% the collectives issue asks for.
TEST_CASE("collectives: within 10% of every published nccl-tests point for 8-A100 nodes with HDR NICs")
{
  struct Point {
    std::string source;
    CollectiveOp op;
    int nodes, nics;
    double bytes, busbw_GBps;
    bool fitted;
  };
  const std::vector<Point> points = {
      // Azure NDm A100 v4, SuperBench v0.4 baseline (8 HDR NICs, one node: NVLink only).
      {"superbench 1 node 1 MiB", CollectiveOp::AllReduce, 1, 8, MiB, 24.5733285917, true},
      {"superbench 1 node 256 MiB", CollectiveOp::AllReduce, 1, 8, 256 * MiB, 223.8664275862, false},
      {"superbench 1 node 1 GiB", CollectiveOp::AllReduce, 1, 8, GiB, 231.3601655172, false},
      {"superbench 1 node 8 GiB", CollectiveOp::AllReduce, 1, 8, 8 * GiB, 235.6534896552, true},
      // MSCCL++ NDmv4 performance, NCCL 2.17.1 (8 HDR NICs a node), in place.
      {"mscclpp 1 node all-reduce 1 GiB", CollectiveOp::AllReduce, 1, 8, GiB, 231.45, false},
      {"mscclpp 1 node all-gather 1 GiB", CollectiveOp::AllGather, 1, 8, GiB, 253.59, false},
      {"mscclpp 1 node all-to-all 1 GiB", CollectiveOp::AllToAll, 1, 8, GiB, 254.69, false},
      {"mscclpp 2 nodes all-reduce 1 GiB", CollectiveOp::AllReduce, 2, 8, GiB, 183.82, false},
      {"mscclpp 2 nodes all-reduce 4 GiB", CollectiveOp::AllReduce, 2, 8, 4 * GiB, 188.18, false},
      {"mscclpp 2 nodes all-gather 1 GiB", CollectiveOp::AllGather, 2, 8, GiB, 177.05, false},
      {"mscclpp 2 nodes all-gather 4 GiB", CollectiveOp::AllGather, 2, 8, 4 * GiB, 186.01, false},
      {"mscclpp 2 nodes all-to-all 1 GiB", CollectiveOp::AllToAll, 2, 8, GiB, 37.80, true},
      {"mscclpp 2 nodes all-to-all 4 GiB", CollectiveOp::AllToAll, 2, 8, 4 * GiB, 37.81, false},
      // li-plus/playground cuda/nccl.md: sendrecv on one node of 8 A100.
      {"playground sendrecv 256 MiB", CollectiveOp::SendRecv, 1, 8, 256 * MiB, 188.60, false},
      {"playground sendrecv 1 GiB", CollectiveOp::SendRecv, 1, 8, GiB, 195.10, true},
      // nccl-tests issue #119: 3 nodes of 8 A100-SXM4-40GB, 4 HDR NICs each, out of place.
      {"nccl-tests #119 23 MB", CollectiveOp::AllReduce, 3, 4, 23068680, 85.30, true},
      {"nccl-tests #119 33.5 MB", CollectiveOp::AllReduce, 3, 4, 33554440, 87.75, false},
      {"nccl-tests #119 86 MB", CollectiveOp::AllReduce, 3, 4, 85983240, 93.76, true},
  };
  const CollectiveCalibration c = a100_hdr_calibration();
  int judged = 0;
  for (const Point& p : points) {
    const double model = collective_time(p.op, p.bytes, a100_nodes(p.nodes, p.nics), c).busbw_Bps / 1e9;
    INFO(p.source << ": model " << model << " GB/s, published " << p.busbw_GBps);
    CHECK(model == Approx(p.busbw_GBps).epsilon(p.fitted ? 0.01 : 0.10));
    judged += p.fitted ? 0 : 1;
  }
  CHECK(judged >= 6);
}
