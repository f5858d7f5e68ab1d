#include "sim/policies/Placements.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::tiny_cluster;

namespace {
std::vector<NodeId> nodes_of(const Allocation& a)
{
  std::vector<NodeId> nodes;
  for (const auto& p : a.parts)
    nodes.push_back(p.node);
  return nodes;
}
Allocation on(NodeId node, int gpus)
{
  Allocation a;
  a.parts = {{node, gpus}};
  return a;
}
} // namespace

// Six nodes, two per leaf switch: leaf0 = {0, 1}, leaf1 = {2, 3}, leaf2 = {4, 5}.
TEST_CASE("pack puts a small job on the best-fitting node")
{
  const Topology topo(tiny_cluster(6, 2));
  ClusterState state(topo);
  state.take(on(0, 5)); // node0 has 3 free
  PackPlacement pack;
  CHECK(nodes_of(pack.place(state, 2)) == std::vector<NodeId>{0});
  CHECK(pack.place(state, 2).parts[0].gpus == 2);
  CHECK(nodes_of(pack.place(state, 4)) == std::vector<NodeId>{1});
}

TEST_CASE("pack takes whole nodes from as few leaf switches as possible")
{
  const Topology topo(tiny_cluster(6, 2));
  ClusterState state(topo);
  state.take(on(0, 1)); // leaf0 keeps one wholly free node
  PackPlacement pack;
  // Two nodes: leaf1 and leaf2 both fit; the lower id wins.
  CHECK(nodes_of(pack.place(state, 16)) == std::vector<NodeId>{2, 3});
  // One node: the leaf with the fewest free nodes that still fits (leaf0).
  CHECK(nodes_of(pack.place(state, 8)) == std::vector<NodeId>{1});
  // Three nodes need two leaves: the fullest first (leaf1), then leaf2.
  const Allocation three = pack.place(state, 24);
  CHECK(nodes_of(three) == std::vector<NodeId>{2, 3, 4});
  CHECK(three.parts[0].gpus == 8);
  // 12 GPUs take two whole nodes.
  CHECK(pack.place(state, 12).gpus_held() == 16);
}

TEST_CASE("pack keeps a job within as few NVLink domains as it can")
{
  // Eight nodes on one leaf, NVLink domains of two: {0, 1}, {2, 3}, {4, 5}, {6, 7}.
  ClusterSpec cluster = tiny_cluster(8, 8);
  cluster.pods[0].nvlink_domain_nodes = 2;
  const Topology topo(cluster);
  ClusterState state(topo);
  state.take(on(0, 1)); // domain {0, 1} keeps one wholly free node
  state.take(on(4, 1)); // and so does {4, 5}
  PackPlacement pack;
  // Two nodes: the first domain wholly free ({2, 3}), not the first two free nodes (1, 2).
  CHECK(nodes_of(pack.place(state, 16)) == std::vector<NodeId>{2, 3});
  // One node: the domain with the fewest free nodes that holds it ({0, 1}).
  CHECK(nodes_of(pack.place(state, 8)) == std::vector<NodeId>{1});
  // Five nodes span three domains at least: the two whole domains, then the first half-free one.
  CHECK(nodes_of(pack.place(state, 40)) == std::vector<NodeId>{1, 2, 3, 6, 7});
  // Where NVLink stops at the node, the first free nodes, as before.
  const Topology plain(tiny_cluster(8, 8));
  ClusterState plain_state(plain);
  plain_state.take(on(0, 1));
  CHECK(nodes_of(pack.place(plain_state, 16)) == std::vector<NodeId>{1, 2});
}

TEST_CASE("spread uses the emptiest node and one node per leaf")
{
  const Topology topo(tiny_cluster(6, 2));
  ClusterState state(topo);
  SpreadPlacement spread;
  CHECK(nodes_of(spread.place(state, 16)) == std::vector<NodeId>{0, 2});
  CHECK(nodes_of(spread.place(state, 24)) == std::vector<NodeId>{0, 2, 4});
  state.take(on(0, 5));
  CHECK(nodes_of(spread.place(state, 2)) == std::vector<NodeId>{1});
}

TEST_CASE("placement returns an empty allocation when the job does not fit")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  state.take(on(0, 1));
  PackPlacement pack;
  SpreadPlacement spread;
  RandomPlacement random(make_stream(1, "placement.random"));
  CHECK(pack.place(state, 16).empty());
  CHECK(spread.place(state, 16).empty());
  CHECK(random.place(state, 16).empty());
  CHECK_FALSE(pack.place(state, 8).empty());
}

TEST_CASE("random placement is valid, seeded and not constant")
{
  const Topology topo(tiny_cluster(6, 2));
  ClusterState state(topo);
  state.take(on(3, 8));
  RandomPlacement a(make_stream(7, "placement.random"));
  RandomPlacement b(make_stream(7, "placement.random"));
  std::set<NodeId> seen;
  for (int i = 0; i < 50; ++i) {
    const Allocation x = a.place(state, 16);
    CHECK(nodes_of(x) == nodes_of(b.place(state, 16)));
    REQUIRE(x.node_count() == 2);
    for (const auto& part : x.parts) {
      CHECK(part.node != 3); // node3 is full
      CHECK(part.gpus == 8);
      seen.insert(part.node);
    }
    CHECK(x.parts[0].node != x.parts[1].node);
  }
  CHECK(seen.size() == 5);
}

TEST_CASE("a job fits in a pod whose free GPUs hold its shape, and feasible_pods lists those pods")
{
  // "small": 2 nodes of 8 GPUs (ids 0-1); "big": 3 nodes of 16 GPUs (ids 2-4).
  const Topology topo(acmesim::testing::two_pod_cluster());
  ClusterState state(topo);
  state.take(on(0, 8));
  state.take(on(1, 3)); // small: 5 free GPUs on one node, no whole node
  CHECK(fits_in_pod(state, 0, 5));
  CHECK_FALSE(fits_in_pod(state, 0, 6));
  CHECK_FALSE(fits_in_pod(state, 0, 16)); // two whole nodes of 8
  CHECK(fits_in_pod(state, 1, 16));
  CHECK(fits_in_pod(state, 1, 48)); // all three whole nodes
  CHECK_FALSE(fits_in_pod(state, 1, 49));
  CHECK(feasible_pods(state, 5) == std::vector<int>{0, 1});
  CHECK(feasible_pods(state, 6) == std::vector<int>{1});
  CHECK(feasible_pods(state, 64).empty());
}
