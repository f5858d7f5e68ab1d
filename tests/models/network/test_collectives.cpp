// The collective model against hand-computed α-β cases and against the published nccl-tests points
// it was fitted to and judged by (docs/network.md, "Collectives", gives every source).
#include "models/common/InputError.hpp"
#include "models/common/TextFile.hpp"
#include "models/network/CollectiveFit.hpp"
#include "models/network/Collectives.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <utility>
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
  // A tree (below) takes 2(7 x 4.78 + ceil(log2 N) x 1.39) us and 92% of that bandwidth.
  const auto ring = [](int n, double bytes) { return 2.0 * (n - 1) * 1.39e-6 + 2.0 * (n - 1) / n * bytes / 97.3e9; };
  const auto tree = [](int nodes, int levels, double bytes) {
    const int n = nodes * 8;
    return 2 * (7 * 4.78e-6 + levels * 1.39e-6) + 2.0 * (n - 1) / n * bytes / (0.92 * 97.3e9);
  };
  for (const auto& [nodes, bytes] : std::vector<std::pair<int, double>>{{2, MiB}, {2, GiB}, {16, GiB}}) {
    INFO(nodes << " nodes, " << bytes << " bytes");
    const CollectiveTime t = collective_time(CollectiveOp::AllReduce, bytes, a100_nodes(nodes, 4), c);
    CHECK(t.time_s == Approx(ring(nodes * 8, bytes)));
    CHECK(t.algbw_Bps == Approx(bytes / t.time_s));
    CHECK(t.busbw_Bps == Approx(t.algbw_Bps * 2.0 * (nodes * 8 - 1) / (nodes * 8)));
    CHECK(t.algorithm == CollectiveAlgorithm::Ring);
  }
  // 2 nodes, 1 MiB: 30 steps (41.7 us) and 1.966e6 bytes (20.2 us): latency dominates, busbw 31.8e9;
  // a tree would take 69.7 us of latency alone.
  CHECK(collective_time(CollectiveOp::AllReduce, MiB, a100_nodes(2, 4), c).busbw_Bps == Approx(31.77e9).epsilon(1e-3));
  // 16 nodes, 1 GiB: 254 steps (353 us) against 2.097e9 bytes (21.6 ms): bandwidth dominates.
  CHECK(collective_time(CollectiveOp::AllReduce, GiB, a100_nodes(16, 4), c).busbw_Bps ==
        Approx(95.7e9).epsilon(1e-3));
  // 16 nodes, 1 MiB: the ring's 353 us of steps against the tree's 4 levels, 78.0 us: a tree, 101.3 us.
  const CollectiveTime small = collective_time(CollectiveOp::AllReduce, MiB, a100_nodes(16, 4), c);
  CHECK(small.algorithm == CollectiveAlgorithm::Tree);
  CHECK(small.time_s == Approx(tree(16, 4, MiB)));
  CHECK(small.time_s == Approx(101.29e-6).epsilon(1e-3));
}

TEST_CASE("collectives: all-reduce switches from tree to ring where the ring's bandwidth repays its steps, later on "
          "more nodes")
{
  // Ring: (16N - 2) x 1.39 us + B / 97.3e9; tree: 2(7 x 4.78 + ceil(log2 N) x 1.39) us + B / (0.92 x
  // 97.3e9), B = 2(n-1)/n of the buffer. The tree wins while its saving in steps outweighs the 8.7%
  // of bandwidth it gives up: below 155.1 MB on 16 nodes (275.0 us saved, 1.7735e-12 s more a byte),
  // below 56.8 MB on 8, below 7.91 MB on 4; never on 2 or 3 nodes, whose rings take fewer steps than
  // a tree's chain through a node's 8 GPUs.
  const CollectiveCalibration c = a100_hdr_calibration();
  const auto algorithm = [&](int nodes, double bytes) {
    return collective_time(CollectiveOp::AllReduce, bytes, a100_nodes(nodes, 4), c).algorithm;
  };
  const auto switch_bytes = [](int nodes, int levels) {
    const int n = nodes * 8;
    const double saved_s = 2.0 * (n - 1) * 1.39e-6 - 2 * (7 * 4.78e-6 + levels * 1.39e-6);
    return saved_s / (2.0 * (n - 1) / n * (1 / (0.92 * 97.3e9) - 1 / 97.3e9));
  };
  CHECK(switch_bytes(16, 4) == Approx(155.1e6).epsilon(1e-3));
  CHECK(switch_bytes(8, 3) == Approx(56.77e6).epsilon(1e-3));
  CHECK(switch_bytes(4, 2) == Approx(7.912e6).epsilon(1e-3));
  for (const auto& [nodes, levels] : std::vector<std::pair<int, int>>{{16, 4}, {8, 3}, {4, 2}}) {
    INFO(nodes << " nodes");
    CHECK(algorithm(nodes, 0.99 * switch_bytes(nodes, levels)) == CollectiveAlgorithm::Tree);
    CHECK(algorithm(nodes, 1.01 * switch_bytes(nodes, levels)) == CollectiveAlgorithm::Ring);
  }
  for (const int nodes : {2, 3})
    for (const double bytes : {8.0, 1024.0, MiB, GiB})
      CHECK(algorithm(nodes, bytes) == CollectiveAlgorithm::Ring);
  // Inside one node NCCL runs rings (and NVLink SHARP, not modelled); all-gathers are rings too.
  CHECK(algorithm(1, 8) == CollectiveAlgorithm::Ring);
  CHECK(collective_time(CollectiveOp::AllGather, 8, a100_nodes(16, 4), c).algorithm == CollectiveAlgorithm::Ring);
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
        Approx(7 * 4.78e-6 + GiB * 7 / 8 / (0.786 * 300e9)));
}

TEST_CASE("collectives: bad shapes are refused")
{
  const CollectiveCalibration c = a100_hdr_calibration();
  CollectiveNodes lone = a100_nodes(1, 1);
  lone.gpus_per_node = 1;
  CHECK_THROWS_AS(collective_time(CollectiveOp::AllReduce, MiB, lone, c), std::invalid_argument);
  CHECK_THROWS_AS(collective_time(CollectiveOp::AllReduce, 0, a100_nodes(2, 4), c), std::invalid_argument);
}

// The published points of configs/collectives/a100-hdr-published.csv (docs/network.md's table, with
// their sources): the defaults are the calibration fitted to its `fit` rows, and every `judge` row
// must be within 10%; a `fit` row within 1%.
std::vector<MeasuredCollective> published_points()
{
  const std::string file = std::string(ACMESIM_SOURCE_DIR) + "/configs/collectives/a100-hdr-published.csv";
  const auto text = read_text_file(file);
  REQUIRE(text);
  return read_measured_collectives(file, *text);
}

TEST_CASE("collectives: the defaults are the calibration fitted to the published points marked fit")
{
  const FittedCollectives fitted = fit_collectives(published_points(), CollectiveCalibration{});
  CHECK(fitted.nvlink_points == 2);
  CHECK(fitted.network_points == 2);
  CHECK(fitted.p2p_points == 1);
  CHECK(fitted.alltoall_points == 1);
  const CollectiveCalibration& got = fitted.calibration;
  const CollectiveCalibration shipped = a100_hdr_calibration();
  // The shipped values are the fit's, rounded to three digits.
  CHECK(got.nvlink.step_latency_s == Approx(shipped.nvlink.step_latency_s).epsilon(0.005));
  CHECK(got.nvlink.efficiency == Approx(shipped.nvlink.efficiency).epsilon(0.005));
  CHECK(got.network.step_latency_s == Approx(shipped.network.step_latency_s).epsilon(0.005));
  CHECK(got.network.efficiency == Approx(shipped.network.efficiency).epsilon(0.005));
  CHECK(got.nvlink_p2p_efficiency == Approx(shipped.nvlink_p2p_efficiency).epsilon(0.005));
  CHECK(got.network_alltoall_efficiency == Approx(shipped.network_alltoall_efficiency).epsilon(0.005));
}

TEST_CASE("collectives: within 10% of every published nccl-tests point for 8-A100 nodes with HDR NICs")
{
  const CollectiveCalibration c = a100_hdr_calibration();
  int judged = 0;
  std::set<int> node_counts;
  for (const MeasuredCollective& p : published_points()) {
    const double model = collective_time(p.op, p.bytes, p.on, c).busbw_Bps;
    INFO(p.where << " " << p.source << ": model " << model / 1e9 << " GB/s, published " << p.busbw_Bps / 1e9);
    CHECK(model == Approx(p.busbw_Bps).epsilon(p.fit ? 0.01 : 0.10));
    if (!p.fit) {
      ++judged;
      node_counts.insert(p.on.nodes);
    }
  }
  CHECK(judged >= 6);
  CHECK(node_counts.size() >= 2);
}

TEST_CASE("collectives: a fit recovers the calibration its points were made with")
{
  CollectiveCalibration truth;
  truth.nvlink = {3e-6, 0.7};
  truth.network = {2e-6, 0.9};
  truth.nvlink_p2p_efficiency = 0.6;
  truth.network_alltoall_efficiency = 0.75;
  std::vector<MeasuredCollective> points;
  const auto measure = [&](CollectiveOp op, int nodes, double bytes) {
    MeasuredCollective m;
    m.where = "made";
    m.op = op;
    m.on = a100_nodes(nodes, 4);
    m.bytes = bytes;
    m.busbw_Bps = collective_time(op, bytes, m.on, truth).busbw_Bps;
    points.push_back(m);
  };
  for (const double bytes : {MiB, 64 * MiB, GiB}) {
    measure(CollectiveOp::AllReduce, 1, bytes);
    measure(CollectiveOp::AllGather, 4, bytes);
    measure(CollectiveOp::SendRecv, 1, bytes);
    measure(CollectiveOp::AllToAll, 2, bytes);
  }
  const CollectiveCalibration got = fit_collectives(points, CollectiveCalibration{}).calibration;
  CHECK(got.nvlink.step_latency_s == Approx(3e-6));
  CHECK(got.nvlink.efficiency == Approx(0.7));
  CHECK(got.network.step_latency_s == Approx(2e-6));
  CHECK(got.network.efficiency == Approx(0.9));
  CHECK(got.nvlink_p2p_efficiency == Approx(0.6));
  CHECK(got.network_alltoall_efficiency == Approx(0.75));
  // Without points for a value, it is the fallback's.
  const std::vector<MeasuredCollective> rings_only(points.begin(), points.begin() + 1);
  CHECK(fit_collectives(rings_only, truth).calibration.network.efficiency == 0.9);
}

TEST_CASE("collectives: a measured file with bad rows is refused, naming file, line, column and value")
{
  const std::string header = "op,nodes,gpus_per_node,nics,nic_Gbps,nvlink_GBps,bytes,busbw_GBps,role,source\n";
  const auto error_of = [&](const std::string& rows) {
    try {
      read_measured_collectives("m.csv", header + rows);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("broadcast,1,8,4,200,300,1048576,20,fit,x\n"), Catch::Contains("m.csv:2") && Catch::Contains("op"));
  CHECK_THAT(error_of("allreduce,0,8,4,200,300,1048576,20,fit,x\n"), Catch::Contains("nodes"));
  CHECK_THAT(error_of("allreduce,1,8,4,200,300,-5,20,fit,x\n"), Catch::Contains("bytes") && Catch::Contains("-5"));
  CHECK_THAT(error_of("allreduce,1,8,4,200,300,1048576,20,maybe,x\n"), Catch::Contains("role"));
  CHECK_THAT(error_of("allreduce,1,8,4,200\n"), Catch::Contains("expected 10 cells"));
  CHECK_THAT(error_of(""), Catch::Contains("no measurement"));
  try {
    read_measured_collectives("m.csv", "op,nodes\nallreduce,1\n");
    FAIL("a file without the columns was read");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("missing column"));
  }
  // 1 GB/s of bus bandwidth on NVLink's 300 GB/s is an efficiency no fit should hide: but a bus
  // bandwidth above what the hardware carries is refused when fitted.
  const auto too_fast = read_measured_collectives("m.csv", header + "allreduce,1,8,4,200,1,1073741824,200,fit,x\n");
  CHECK_THROWS_AS(fit_collectives(too_fast, a100_hdr_calibration()), InputError);
}
