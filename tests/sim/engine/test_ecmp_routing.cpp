// Routing between leaves (cluster.fabric.routing), worked out by hand on the platform: pooled uplinks
// spread every flow evenly, ECMP hashes each flow onto one spine cable, so flows collide. The hash
// is the one the platform uses (models/cluster/EcmpHash, tested on its own); the tests pick seeds
// with it. Rates are what a ring gets while it sends, in lock-step (RingBench): on a cable, each
// flow alone gets LONE_SHARE of its bandwidth, and the flows on it split that evenly.
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
  CHECK(got.at("A") == Approx(PORT_Bps * LONE_SHARE / 2));
  CHECK(got.at("B") == Approx(PORT_Bps * LONE_SHARE / 2));
}

TEST_CASE("routing: under ecmp, two rings whose flows hash onto other spines each get a whole port", "[routing]")
{
  const std::uint64_t seed = first_seed([](std::uint64_t s) {
    return spine(s, 0, 2, 0, 2) != spine(s, 1, 3, 0, 2) && spine(s, 2, 0, 0, 2) != spine(s, 3, 1, 0, 2);
  });
  const auto got = two_rings(FabricRouting::Ecmp, seed);
  CHECK(got.at("A") == Approx(PORT_Bps * LONE_SHARE));
  CHECK(got.at("B") == Approx(PORT_Bps * LONE_SHARE));
}

TEST_CASE("routing: pooled uplinks give both rings a whole port, whatever the seed", "[routing]")
{
  // The two uplinks pooled: 50 GB/s a leaf direction for two flows of at most a port each.
  const std::uint64_t colliding = first_seed([](std::uint64_t s) { return spine(s, 0, 2, 0, 2) == spine(s, 1, 3, 0, 2); });
  const auto got = two_rings(FabricRouting::Pooled, colliding);
  CHECK(got.at("A") == Approx(PORT_Bps * LONE_SHARE));
  CHECK(got.at("B") == Approx(PORT_Bps * LONE_SHARE));
}

TEST_CASE("routing: under ecmp a Kalos ring across leaves travels in a flow per NIC, and gets a port per flow over "
          "the most of its flows one spine cable carries",
          "[routing]")
{
  // Kalos nodes (4 NICs, 5 a leaf, 20 spines). The ring over nodes 0 (leaf 0) and 5 (leaf 1) opens
  // 4 flows each way, each hashed onto a spine; all four wait for the slowest, so the ring gets
  // 4 x a port's share over the most flows on one cable. A seed where two of one direction's flows
  // share a spine: half of what four apart get (a quarter of such hops collide: 1 - 20x19x18x17 / 20^4).
  const auto most_on_one_spine = [](std::uint64_t s) {
    int most = 0;
    for (const auto& [from, to] : {std::pair<NodeId, NodeId>{0, 5}, {5, 0}}) {
      std::vector<int> on(20, 0);
      for (std::uint32_t flow = 0; flow < 4; ++flow)
        most = std::max(most, ++on[spine(s, from, to, flow, 20)]);
    }
    return most;
  };
  const std::uint64_t seed = first_seed([&](std::uint64_t s) { return most_on_one_spine(s) == 2; });
  PodSpec pod = kalos_pod(10);
  pod.fabric.routing = FabricRouting::Ecmp;
  RingBench bench(cluster_of(pod), seed);
  REQUIRE(bench.topology().spine_count() == 20);
  double got = 0;
  bench.at(0, [&] { bench.rings().open(0, whole_nodes({0, 5}), always_sending()); });
  bench.at(1, [&] {
    got = rate_of(bench.rings(), 0);
    bench.rings().close(0);
  });
  bench.run_until(2);
  CHECK(got == Approx(4 * PORT_Bps * LONE_SHARE / 2));
}
