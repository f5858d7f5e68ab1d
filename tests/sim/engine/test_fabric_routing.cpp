// Routing between leaves (cluster.fabric.routing) and the wiring of NICs to leaves
// (cluster.fabric.wiring), worked out by hand on the platform: pooled uplinks spread every flow
// evenly, ECMP hashes each flow onto one spine cable, so flows collide; rail wiring keeps a rail
// group's traffic off the spines and each NIC's flows on its own plane. The hash is the one the
// platform uses (models/cluster/EcmpHash, tested on its own); the tests pick seeds with it. Rates are what a ring gets while it sends, in lock-step (RingBench): on a cable, each
// flow alone gets RING_SHARE of its bandwidth, and the flows on it split that evenly.
#include "models/cluster/EcmpHash.hpp"
#include "tests/support/RingBench.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

constexpr double PORT_Bps = 25e9; // an HDR port: 200 Gb/s

// Four one-NIC (Seren) nodes, two to a 4-port leaf: 2 uplinks a leaf, to 2 spines, non-blocking.
PodSpec two_leaves_two_spines(FabricRouting routing)
{
  PodSpec pod = seren_pod(4);
  pod.fabric.leaf_radix = 4;
  pod.fabric.nodes_per_leaf = 2;
  pod.fabric.routing = routing;
  return pod;
}

// The spine the flow-th flow from node `from` to node `to` hashes to.
std::size_t spine(std::uint64_t seed, NodeId from, NodeId to, std::uint32_t flow, std::size_t spines)
{
  return ecmp_path(EcmpFlow{seed, from, to, flow}, spines);
}

// The first seed the condition holds for.
std::uint64_t first_seed(const std::function<bool(std::uint64_t)>& holds)
{
  for (std::uint64_t seed = 0; seed < 1000; ++seed)
    if (holds(seed))
      return seed;
  throw std::logic_error("no seed below 1000");
}

// Ring A over nodes 0 (leaf 0) and 2 (leaf 1), ring B over 1 and 3, both in lock-step and always
// sending; their rates while both send.
std::map<std::string, double> two_rings(FabricRouting routing, std::uint64_t seed)
{
  RingBench bench(cluster_of(two_leaves_two_spines(routing)), seed);
  REQUIRE(bench.topology().spine_count() == 2);
  std::map<std::string, double> got;
  bench.at(0, [&] {
    bench.rings().open(0, whole_nodes({0, 2}), always_sending());
    bench.rings().open(1, whole_nodes({1, 3}), always_sending());
  });
  bench.at(1, [&] {
    got["A"] = rate_of(bench.rings(), 0);
    got["B"] = rate_of(bench.rings(), 1);
    bench.rings().close(0);
    bench.rings().close(1);
  });
  bench.run_until(2);
  return got;
}

// What an always-sending ring over `nodes` gets alone.
double lone_ring_rate(RingBench& bench, std::vector<NodeId> nodes)
{
  double got = 0;
  bench.at(0, [&] { bench.rings().open(0, whole_nodes(std::move(nodes)), always_sending()); });
  bench.at(1, [&] {
    got = rate_of(bench.rings(), 0);
    bench.rings().close(0);
  });
  bench.run_until(2);
  return got;
}

// The most of the four flows of one direction of a ring over Kalos nodes a and b that hash onto one
// of `spines` spines.
int most_flows_on_one_spine(std::uint64_t seed, NodeId a, NodeId b, std::size_t spines)
{
  int most = 0;
  for (const auto& [from, to] : {std::pair<NodeId, NodeId>{a, b}, {b, a}}) {
    std::vector<int> on(spines, 0);
    for (std::uint32_t flow = 0; flow < 4; ++flow)
      most = std::max(most, ++on[spine(seed, from, to, flow, spines)]);
  }
  return most;
}

// An always-sending ring over Kalos nodes a and b alone, routed by ECMP on a pod of `nodes` wired as
// said, at the first seed whose hash puts two of one direction's four flows on one of `spines`
// spines (the pod's spine count).
double kalos_ecmp_ring_at_collision(FabricWiring wiring, int nodes, NodeId a, NodeId b, std::size_t spines)
{
  const std::uint64_t seed = first_seed([&](std::uint64_t s) { return most_flows_on_one_spine(s, a, b, spines) == 2; });
  PodSpec pod = kalos_pod(nodes);
  pod.fabric.routing = FabricRouting::Ecmp;
  pod.fabric.wiring = wiring;
  RingBench bench(cluster_of(pod), seed);
  REQUIRE(bench.topology().spine_count() == spines);
  return lone_ring_rate(bench, {a, b});
}

// Four nodes of 2 NICs (50 GB/s a node) on 3-port switches at 2:1 (2 downlinks, 1 uplink each).
//  - leaf wiring: both NICs of a node on one switch, so a node a leaf, with one 25 GB/s uplink;
//  - rail wiring: NIC k of nodes 0 and 1 on rail switch k of group 0 (nodes 2 and 3: group 1), so
//    a group has two uplinks, one a rail, each to its own spine.
ClusterSpec two_nic_pod(FabricWiring wiring)
{
  PodSpec pod = kalos_pod(4);
  pod.compute_nics = 2;
  pod.fabric.leaf_radix = 3;
  pod.fabric.oversubscription = 2;
  pod.fabric.spine_radix = 0;
  pod.fabric.wiring = wiring;
  return cluster_of(pod);
}

} // namespace

// Each ring sends 0 -> 2 up leaf 0 and down leaf 1 through one spine, and 2 -> 0 the other way
// through the spine its own hash picks; A's and B's flows meet on a cable when they pick the same
// spine in the same direction.

TEST_CASE("routing: under ecmp, two rings whose flows hash onto one spine cable each get half of it", "[routing]")
{
  const std::uint64_t seed = first_seed([](std::uint64_t s) {
    return spine(s, 0, 2, 0, 2) == spine(s, 1, 3, 0, 2) && spine(s, 2, 0, 0, 2) != spine(s, 3, 1, 0, 2);
  });
  const auto got = two_rings(FabricRouting::Ecmp, seed);
  CHECK(got.at("A") == Approx(PORT_Bps * RING_SHARE / 2));
  CHECK(got.at("B") == Approx(PORT_Bps * RING_SHARE / 2));
}

TEST_CASE("routing: under ecmp, two rings whose flows hash onto other spines each get a whole port", "[routing]")
{
  const std::uint64_t seed = first_seed([](std::uint64_t s) {
    return spine(s, 0, 2, 0, 2) != spine(s, 1, 3, 0, 2) && spine(s, 2, 0, 0, 2) != spine(s, 3, 1, 0, 2);
  });
  const auto got = two_rings(FabricRouting::Ecmp, seed);
  CHECK(got.at("A") == Approx(PORT_Bps * RING_SHARE));
  CHECK(got.at("B") == Approx(PORT_Bps * RING_SHARE));
}

TEST_CASE("routing: pooled uplinks give both rings a whole port, whatever the seed", "[routing]")
{
  // The two uplinks pooled: 50 GB/s a leaf direction for two flows of at most a port each.
  const std::uint64_t colliding = first_seed([](std::uint64_t s) { return spine(s, 0, 2, 0, 2) == spine(s, 1, 3, 0, 2); });
  const auto got = two_rings(FabricRouting::Pooled, colliding);
  CHECK(got.at("A") == Approx(PORT_Bps * RING_SHARE));
  CHECK(got.at("B") == Approx(PORT_Bps * RING_SHARE));
}

TEST_CASE("routing: under ecmp a Kalos ring across leaves travels in a flow per NIC, and gets a port per flow over "
          "the most of its flows one spine cable carries",
          "[routing]")
{
  // Kalos nodes (4 NICs, 5 a leaf, 20 spines). The ring over nodes 0 (leaf 0) and 5 (leaf 1) opens
  // 4 flows each way, each hashed onto a spine; all four wait for the slowest, so the ring gets
  // 4 x a port's share over the most flows on one cable: half, when two of one direction's flows
  // share a spine (27% of such hops: 1 - 20x19x18x17 / 20^4).
  CHECK(kalos_ecmp_ring_at_collision(FabricWiring::Leaf, 10, 0, 5, 20) == Approx(4 * PORT_Bps * RING_SHARE / 2));
}

// ---- Rail-optimised wiring ----

TEST_CASE("routing: under leaf wiring a ring over two 2-NIC nodes crosses one uplink and gets a port", "[routing]")
{
  RingBench bench(two_nic_pod(FabricWiring::Leaf));
  REQUIRE(bench.topology().leaf_count() == 4);
  REQUIRE(bench.topology().spine_count() == 1);
  CHECK(lone_ring_rate(bench, {0, 1}) == Approx(PORT_Bps * RING_SHARE));
}

TEST_CASE("routing: under rail wiring the same ring stays on its group's rail switches and gets both NICs", "[routing]")
{
  RingBench bench(two_nic_pod(FabricWiring::Rail));
  REQUIRE(bench.topology().leaf_count() == 2);
  REQUIRE(bench.topology().spine_count() == 2);
  CHECK(lone_ring_rate(bench, {0, 1}) == Approx(2 * PORT_Bps * RING_SHARE));
}

TEST_CASE("routing: under rail wiring and ecmp a Kalos ring's flows leave on four rails to four planes of spines, so "
          "they never meet: a seed whose hash would put two on one of the 80 spines gives the whole node",
          "[routing]")
{
  // Rail groups of 20 Kalos nodes (a 40-port switch's 20 downlinks, one NIC each), 4 x 20 spines.
  // Nodes 0 and 25 are in groups 0 and 1; flow k of each hop leaves on rail k, to plane k.
  CHECK(kalos_ecmp_ring_at_collision(FabricWiring::Rail, 40, 0, 25, 80) == Approx(4 * PORT_Bps * RING_SHARE));
}

// ---- Three tiers ----

namespace {

// Eight Seren nodes (one 25 GB/s NIC) with a storage NIC, 2 to a 4-port leaf (2 uplinks: 50 GB/s
// a leaf), 2 leaves a block: 2 blocks of 2 spines. At 2:1 toward the core a spine has one core
// port, so a block reaches the core at 2 x 25 = 50 GB/s, half what its 4 nodes send; at 1:1, 100.
ClusterSpec two_blocks(double core_oversubscription)
{
  PodSpec pod = seren_pod(8);
  pod.storage_nics = 1;
  pod.fabric.leaf_radix = 4;
  pod.fabric.nodes_per_leaf = 2;
  pod.fabric.nodes_per_block = 4;
  pod.fabric.core_oversubscription = core_oversubscription;
  return cluster_of(pod);
}

// Four always-sending rings at once, each over the node pairs given; their rates while all send.
std::vector<double> four_rings(const ClusterSpec& cluster, const std::vector<std::vector<NodeId>>& rings)
{
  RingBench bench(cluster);
  std::vector<double> got;
  bench.at(0, [&] {
    for (std::size_t i = 0; i < rings.size(); ++i)
      bench.rings().open(static_cast<JobId>(i), whole_nodes(rings[i]), always_sending());
  });
  bench.at(1, [&] {
    for (std::size_t i = 0; i < rings.size(); ++i)
      got.push_back(rate_of(bench.rings(), static_cast<JobId>(i)));
  });
  bench.run_until(2);
  return got;
}

const std::vector<std::vector<NodeId>> ACROSS_BLOCKS{{0, 4}, {1, 5}, {2, 6}, {3, 7}};

} // namespace

TEST_CASE("routing: rings across blocks cross the oversubscribed core: four of them share a block's 50 GB/s",
          "[routing]")
{
  // Each ring's node cables (25 GB/s) and its leaf's uplinks (two rings on 50 GB/s) would give it a
  // whole NIC; the four rings of a block share its 50 GB/s to the core: 12.5 GB/s each.
  for (const double rate : four_rings(two_blocks(2), ACROSS_BLOCKS))
    CHECK(rate == Approx(PORT_Bps / 2 * RING_SHARE));
}

TEST_CASE("routing: a ring across blocks tells schedulers which of its links run to the core", "[routing]")
{
  // Ring 0 -> 4 and back: block 0's pooled core cables (its first leaf: 0) and block 1's (leaf 2),
  // each both ways, marked core and uplink; the leaves' uplinks are uplinks, not core.
  RingBench bench(two_blocks(2));
  std::vector<CommLink> links;
  bench.at(0, [&] { bench.rings().open(0, whole_nodes({0, 4}), always_sending()); });
  bench.at(1, [&] { links = bench.rings().links(0); });
  bench.run_until(2);
  std::map<std::string, LeafId> core;
  for (const CommLink& link : links) {
    INFO(link.name);
    CHECK(link.core == (link.name.find("-core_") != std::string::npos));
    if (link.core) {
      CHECK(link.uplink);
      core.emplace(link.name, link.leaf);
    }
  }
  CHECK(core == std::map<std::string, LeafId>{{"seren-block0-core_UP", 0},
                                              {"seren-block0-core_DOWN", 0},
                                              {"seren-block1-core_UP", 2},
                                              {"seren-block1-core_DOWN", 2}});
}

TEST_CASE("routing: the same rings under a non-blocking core get a whole NIC each", "[routing]")
{
  for (const double rate : four_rings(two_blocks(1), ACROSS_BLOCKS))
    CHECK(rate == Approx(PORT_Bps * RING_SHARE));
}

TEST_CASE("routing: rings within a block never reach the core", "[routing]")
{
  // Nodes 0 and 2 (leaves 0 and 1 of block 0) and so on: the spines of their own block only.
  for (const double rate : four_rings(two_blocks(2), {{0, 2}, {1, 3}, {4, 6}, {5, 7}}))
    CHECK(rate == Approx(PORT_Bps * RING_SHARE));
}
