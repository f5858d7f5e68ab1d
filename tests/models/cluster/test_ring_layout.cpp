// The ring a training job runs across the fabric: node to node where NVLink stops at the node,
// lane to lane between NVLink domains where it spans several nodes, nothing within one domain.
#include "models/cluster/RingLayout.hpp"
#include "models/common/InputError.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace acmesim;

namespace {

// One leaf of `nodes` 4-GPU nodes, NVLink domains of `domain` consecutive nodes.
ClusterSpec domains_of(int nodes, int domain)
{
  ClusterSpec spec = testing::tiny_cluster(nodes, nodes, 4);
  spec.pods[0].nvlink_domain_nodes = domain;
  return spec;
}

std::vector<RingHop> hops(std::initializer_list<std::pair<NodeId, NodeId>> pairs)
{
  std::vector<RingHop> out;
  for (const auto& [from, to] : pairs)
    out.push_back({from, to});
  return out;
}

} // namespace

TEST_CASE("ring layout: node to node where each node is its own NVLink domain")
{
  const Topology topology(domains_of(4, 1));
  const RingLayout ring = ring_layout(topology, {0, 2, 3});
  CHECK(ring.domains == 3);
  CHECK(ring.lanes == 1);
  CHECK(ring.hops == hops({{0, 2}, {2, 3}, {3, 0}}));
  CHECK(node_ring({0, 2, 3}).hops == ring.hops);
  // Two nodes: there and back.
  CHECK(ring_layout(topology, {1, 2}).hops == hops({{1, 2}, {2, 1}}));
}

TEST_CASE("ring layout: a job within one NVLink domain crosses no NIC, one across domains runs a lane per node")
{
  // Domains of 18 nodes, as GB200 NVL72's 18 trays of 4 GPUs: a 72-GPU job on one rack.
  const Topology topology(domains_of(36, 18));
  std::vector<NodeId> rack(18);
  std::iota(rack.begin(), rack.end(), NodeId{0});
  const RingLayout within = ring_layout(topology, rack);
  CHECK(within.domains == 1);
  CHECK(within.hops.empty());

  // Two trays in each of two racks: lane 0 (nodes 0 and 18) and lane 1 (1 and 19), each a ring
  // of two domains.
  const RingLayout across = ring_layout(topology, {0, 1, 18, 19});
  CHECK(across.domains == 2);
  CHECK(across.lanes == 2);
  CHECK(across.hops == hops({{0, 18}, {1, 19}, {18, 0}, {19, 1}}));
  // Uneven: three trays in one rack, one in the other: one lane; the other trays reach it over NVLink.
  const RingLayout uneven = ring_layout(topology, {3, 4, 5, 20});
  CHECK(uneven.lanes == 1);
  CHECK(uneven.hops == hops({{3, 20}, {20, 3}}));
}

TEST_CASE("ring layout: an NVLink domain that would straddle two leaves is bad input")
{
  ClusterSpec spec = domains_of(36, 18);
  spec.pods[0].fabric.nodes_per_leaf = 12;
  try {
    const Topology topology(spec);
    FAIL("expected an InputError");
  } catch (const InputError& error) {
    REQUIRE(error.diagnostics().size() == 1);
    CHECK(error.diagnostics()[0].key == "cluster.pods.0.nvlink_domain_nodes");
    CHECK(error.diagnostics()[0].value == "18");
    CHECK_THAT(error.diagnostics()[0].message, Catch::Contains("must not straddle two leaves") &&
                                                   Catch::Contains("the 12 nodes of a leaf"));
  }
  spec.pods[0].fabric.nodes_per_leaf = 36;
  CHECK(Topology(spec).nvlink_domain_of(35) == 1);
}
