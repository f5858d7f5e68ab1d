// Topology graph built from a ClusterSpec: derived switch counts, locality, cable bandwidths,
// validation. Pod specs are written inline with the values of the presets in configs/clusters/,
// so the expectations below can be checked by hand.
#include "models/cluster/Topology.hpp"
#include "models/common/InputError.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace acmesim;

namespace {

FabricSpec hdr_fabric(int spine_radix)
{
  FabricSpec fabric;
  fabric.leaf_radix = 40;
  fabric.spine_radix = spine_radix;
  fabric.oversubscription = 1.0;
  fabric.nodes_per_leaf = 0;
  fabric.port_bandwidth_Gbps = 200;
  fabric.link_latency_us = 1.0;
  return fabric;
}

PodSpec seren()
{
  PodSpec pod;
  pod.name = "seren";
  pod.nodes = 286;
  pod.gpus_per_node = 8;
  pod.compute_nics = 1;
  pod.storage_nics = 0;
  pod.nic_bandwidth_Gbps = 200;
  pod.fabric = hdr_fabric(40);
  return pod;
}

PodSpec kalos()
{
  PodSpec pod;
  pod.name = "kalos";
  pod.nodes = 302;
  pod.gpus_per_node = 8;
  pod.compute_nics = 4;
  pod.storage_nics = 1;
  pod.nic_bandwidth_Gbps = 200;
  pod.fabric = hdr_fabric(800);
  return pod;
}

ClusterSpec cluster_of(std::vector<PodSpec> pods)
{
  ClusterSpec spec;
  spec.name = "test";
  spec.pods = std::move(pods);
  return spec;
}

const TopologyEdge* find_edge(const Topology& topology, const std::string& name)
{
  const TopologyGraph& graph = topology.graph();
  for (auto [it, end] = boost::edges(graph); it != end; ++it)
    if (graph[*it].name == name)
      return &graph[*it];
  return nullptr;
}

// Diagnostics of the InputError thrown for a spec; empty when the spec is accepted.
std::vector<Diagnostic> diagnostics_of(const ClusterSpec& spec)
{
  try {
    Topology topology(spec);
  } catch (const InputError& error) {
    return error.diagnostics();
  }
  return {};
}

bool has_key(const std::vector<Diagnostic>& diagnostics, const std::string& key)
{
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) { return d.key == key; });
}

} // namespace

TEST_CASE("nodes per leaf and uplinks derive from radix, oversubscription and NICs", "[topology]")
{
  CHECK(derived_nodes_per_leaf(seren()) == 20); // 40 ports, half down: 20 single-NIC nodes
  CHECK(derived_uplinks_per_leaf(seren()) == 20);
  CHECK(derived_nodes_per_leaf(kalos()) == 5); // 20 downlinks / 4 NICs
  CHECK(derived_uplinks_per_leaf(kalos()) == 20);

  PodSpec oversubscribed = seren();
  oversubscribed.fabric.oversubscription = 3.0; // 30 down, 10 up
  CHECK(derived_nodes_per_leaf(oversubscribed) == 30);
  CHECK(derived_uplinks_per_leaf(oversubscribed) == 10);
  oversubscribed.fabric.oversubscription = 2.0; // floor(80 / 3) = 26 down
  CHECK(derived_nodes_per_leaf(oversubscribed) == 26);
  CHECK(derived_uplinks_per_leaf(oversubscribed) == 14);

  PodSpec explicit_leaf = kalos();
  explicit_leaf.fabric.nodes_per_leaf = 2; // given: 8 ports down, 32 up
  CHECK(derived_nodes_per_leaf(explicit_leaf) == 2);
  CHECK(derived_uplinks_per_leaf(explicit_leaf) == 32);
}

TEST_CASE("cluster totals sum the pods", "[topology]")
{
  const ClusterSpec acme = cluster_of({seren(), kalos()});
  CHECK(acme.total_nodes() == 588);
  CHECK(acme.total_gpus() == 4704);
}

TEST_CASE("Seren: 286 single-NIC nodes on 15 leaves and 20 spines, storage on the spines", "[topology]")
{
  const Topology topology(cluster_of({seren()}));
  CHECK(topology.pod_count() == 1);
  CHECK(topology.node_count() == 286);
  CHECK(topology.leaf_count() == 15); // ceil(286 / 20)
  CHECK(topology.spine_count() == 20);
  CHECK(topology.total_gpus() == 2288);
  CHECK(topology.total_cpus() == 286 * 128); // the default 128 cores a node
  CHECK(boost::num_vertices(topology.graph()) == 286 + 15 + 20 + 1);
  CHECK(boost::num_edges(topology.graph()) == 286 + 15 * 20 + 20); // node-leaf, leaf-spine, spine-storage
  CHECK(topology.nodes_of_leaf(14).size() == 6);                   // 286 - 14 * 20
  CHECK(topology.node_name(3) == "seren-n3");
  CHECK(topology.gpus_of(3) == 8);
  CHECK(topology.graph()[topology.storage_vertex()].kind == VertexKind::Storage);
  CHECK(topology.graph()[topology.storage_vertex()].pod == -1);
}

TEST_CASE("Kalos: 4 NICs per node leave 5 nodes per leaf, so 61 leaves", "[topology]")
{
  const Topology topology(cluster_of({kalos()}));
  CHECK(topology.node_count() == 302);
  CHECK(topology.leaf_count() == 61); // ceil(302 / 5)
  CHECK(topology.spine_count() == 20);
  CHECK(boost::num_edges(topology.graph()) == 302 + 61 * 20 + 302); // node-leaf, leaf-spine, node-storage
  CHECK(topology.nodes_of_leaf(60).size() == 2);
}

TEST_CASE("Kalos rail-optimised: a rail group holds a switch's 20 downlinks of nodes, so 16 groups, and its 4 rail "
          "switches' 80 uplinks reach 80 spines",
          "[topology]")
{
  PodSpec pod = kalos();
  pod.fabric.wiring = FabricWiring::Rail;
  CHECK(nics_per_leaf_switch(pod) == 1);
  CHECK(switches_per_leaf(pod) == 4);
  CHECK(derived_nodes_per_leaf(pod) == 20);
  CHECK(derived_uplinks_per_leaf(pod) == 80);
  const Topology topology(cluster_of({pod}));
  CHECK(topology.leaf_count() == 16); // ceil(302 / 20)
  CHECK(topology.spine_count() == 80);
}

TEST_CASE("two pods: counts add up and ids are dense pod by pod", "[topology]")
{
  const Topology topology(cluster_of({seren(), kalos()}));
  CHECK(topology.pod_count() == 2);
  CHECK(topology.node_count() == 588);
  CHECK(topology.leaf_count() == 76);
  CHECK(topology.spine_count() == 40);
  CHECK(topology.total_gpus() == 4704);
  CHECK(topology.first_node_of_pod(1) == 286);
  CHECK(topology.node_name(286) == "kalos-n0");
  CHECK(topology.pod_of(285) == 0);
  CHECK(topology.pod_of(286) == 1);
  CHECK(topology.leaves_of_pod(1).front() == 15);
  CHECK(topology.leaf_of(286) == 15);
  CHECK(topology.graph()[topology.leaf_vertex(15)].name == "kalos-leaf0");
  CHECK(topology.graph()[topology.spine_vertices(1)[2]].name == "kalos-spine2");
}

TEST_CASE("leaf_of and nodes_of_leaf agree", "[topology]")
{
  const Topology topology(cluster_of({seren(), kalos()}));
  CHECK(topology.leaf_of(19) == 0);
  CHECK(topology.leaf_of(20) == 1);
  CHECK(topology.nodes_of_leaf(1).front() == 20);
  std::size_t nodes_on_leaves = 0;
  for (LeafId leaf = 0; leaf < topology.leaf_count(); ++leaf) {
    nodes_on_leaves += topology.nodes_of_leaf(leaf).size();
    for (NodeId node : topology.nodes_of_leaf(leaf)) {
      REQUIRE(topology.leaf_of(node) == leaf);
      REQUIRE(topology.pod_of_leaf(leaf) == topology.pod_of(node));
    }
  }
  CHECK(nodes_on_leaves == topology.node_count());
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    const auto& peers = topology.nodes_of_leaf(topology.leaf_of(node));
    REQUIRE(std::find(peers.begin(), peers.end(), node) != peers.end());
    const auto& pod_leaves = topology.leaves_of_pod(topology.pod_of(node));
    REQUIRE(std::find(pod_leaves.begin(), pod_leaves.end(), topology.leaf_of(node)) != pod_leaves.end());
  }
}

TEST_CASE("hop distance counts cables over the compute fabric only", "[topology]")
{
  const Topology topology(cluster_of({seren(), kalos()}));
  CHECK(topology.hop_distance(0, 0) == 0);
  CHECK(topology.hop_distance(0, 19) == 2);  // same leaf
  CHECK(topology.hop_distance(0, 20) == 4);  // leaf, spine, leaf
  CHECK(topology.hop_distance(20, 0) == 4);  // symmetric (answered from the cached search of node 0)
  CHECK(topology.hop_distance(0, 285) == 4); // the partial last leaf
  CHECK(topology.hop_distance(286, 290) == 2);
  // Kalos nodes share the storage vertex (2 cables away from each other) but storage is no compute path.
  CHECK(topology.hop_distance(286, 291) == 4);
  CHECK(topology.hop_distance(0, 286) == -1); // pods meet only at storage
  CHECK(topology.hop_distance(587, 3) == -1);
  CHECK_THROWS_AS(topology.hop_distance(0, 588), std::out_of_range);
}

TEST_CASE("cables carry the bandwidth of their ports in bytes per second", "[topology]")
{
  const Topology topology(cluster_of({seren(), kalos()}));
  const TopologyEdge* seren_node = find_edge(topology, "seren-n3-leaf0");
  const TopologyEdge* seren_uplink = find_edge(topology, "seren-leaf0-spine2");
  const TopologyEdge* seren_storage = find_edge(topology, "seren-spine2-storage");
  const TopologyEdge* kalos_node = find_edge(topology, "kalos-n7-leaf1");
  const TopologyEdge* kalos_storage = find_edge(topology, "kalos-n7-storage");
  REQUIRE(seren_node);
  REQUIRE(seren_uplink);
  REQUIRE(seren_storage);
  REQUIRE(kalos_node);
  REQUIRE(kalos_storage);
  CHECK(seren_node->bandwidth_Bps == Approx(25e9));     // 1 x 200 Gb/s
  CHECK(seren_uplink->bandwidth_Bps == Approx(25e9));   // one HDR port
  CHECK(seren_storage->bandwidth_Bps == Approx(25e9));  // one HDR port
  CHECK(kalos_node->bandwidth_Bps == Approx(100e9));    // 4 x 200 Gb/s
  CHECK(kalos_storage->bandwidth_Bps == Approx(25e9));  // 1 storage NIC
  CHECK(kalos_node->latency_s == Approx(1e-6));
  CHECK(find_edge(topology, "seren-n3-storage") == nullptr);

  // Every cable name is unique: the SimGrid platform uses them as link names.
  std::vector<std::string> names;
  for (auto [it, end] = boost::edges(topology.graph()); it != end; ++it)
    names.push_back(topology.graph()[*it].name);
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
}

TEST_CASE("storage hangs off the spines without storage NICs, off every node with them", "[topology]")
{
  const Topology topology(cluster_of({seren(), kalos()}));
  const TopologyGraph& graph = topology.graph();
  int from_spines = 0;
  int from_nodes = 0;
  for (auto [it, end] = boost::adjacent_vertices(topology.storage_vertex(), graph); it != end; ++it) {
    const TopologyVertex& v = graph[*it];
    if (v.kind == VertexKind::Spine && v.pod == 0)
      ++from_spines;
    else if (v.kind == VertexKind::Node && v.pod == 1)
      ++from_nodes;
    else
      FAIL("unexpected storage neighbour " << v.name);
  }
  CHECK(from_spines == 20);
  CHECK(from_nodes == 302);
}

TEST_CASE("invalid pods are reported with the key to fix", "[topology][validation]")
{
  SECTION("no node")
  {
    PodSpec pod = seren();
    pod.nodes = 0;
    CHECK(has_key(diagnostics_of(cluster_of({pod})), "cluster.pods.0.nodes"));
  }
  SECTION("no GPU")
  {
    PodSpec pod = seren();
    pod.gpus_per_node = 0;
    CHECK(has_key(diagnostics_of(cluster_of({pod})), "cluster.pods.0.gpus_per_node"));
  }
  SECTION("no compute NIC")
  {
    PodSpec pod = kalos();
    pod.compute_nics = 0;
    CHECK(has_key(diagnostics_of(cluster_of({seren(), pod})), "cluster.pods.1.compute_nics"));
  }
  SECTION("leaf too small for one node plus an uplink")
  {
    PodSpec pod = kalos();
    pod.fabric.leaf_radix = 4; // 4 NICs, no port left for an uplink
    const auto diagnostics = diagnostics_of(cluster_of({pod}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].key == "cluster.pods.0.fabric.leaf_radix");
    CHECK(diagnostics[0].value == "4");
    CHECK(diagnostics[0].message.find(">= 5") != std::string::npos);
  }
  SECTION("more leaves than spine ports")
  {
    PodSpec pod = kalos();
    pod.fabric.spine_radix = 40; // 61 leaves need 61 ports per spine
    const auto diagnostics = diagnostics_of(cluster_of({seren(), pod}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].where == "cluster");
    CHECK(diagnostics[0].key == "cluster.pods.1.fabric.spine_radix");
    CHECK(diagnostics[0].message.find("61") != std::string::npos);
  }
  SECTION("a pod larger than two tiers hold is told the block size three tiers would take")
  {
    PodSpec pod = kalos();
    pod.fabric.spine_radix = 40;
    const auto diagnostics = diagnostics_of(cluster_of({pod}));
    REQUIRE(diagnostics.size() == 1);
    // 40 ports: 20 leaves of 5 nodes a block and 20 ports toward a non-blocking core.
    CHECK(diagnostics[0].message.find("or three tiers: fabric.nodes_per_block of at most 100 nodes") !=
          std::string::npos);
    pod.fabric.nodes_per_block = 100;
    CHECK(diagnostics_of(cluster_of({pod})).empty());
    // An oversubscribed core takes fewer spine ports: 40 leaves a block and 40 / 7 -> 6 toward the core.
    pod.fabric.spine_radix = 46;
    pod.fabric.nodes_per_block = 200;
    pod.fabric.core_oversubscription = 7;
    CHECK(diagnostics_of(cluster_of({pod})).empty());
    pod.fabric.spine_radix = 45;
    const auto short_by_one = diagnostics_of(cluster_of({pod}));
    REQUIRE(short_by_one.size() == 1);
    CHECK(short_by_one[0].message.find("each block of pod 'kalos' has 40 leaf switches (5 nodes each) and 6 ports a "
                                       "spine toward the core: its spines need at least 46 ports") != std::string::npos);
  }
  SECTION("three-tier blocks hold whole leaves and need storage NICs; their keys need blocks or rails")
  {
    PodSpec pod = kalos();
    pod.fabric.nodes_per_block = 12; // leaves of 5 nodes
    auto diagnostics = diagnostics_of(cluster_of({pod}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].key == "cluster.pods.0.fabric.nodes_per_block");
    CHECK(diagnostics[0].message.find("a multiple of the 5 nodes of a leaf") != std::string::npos);

    PodSpec shared = seren();
    shared.fabric.nodes_per_block = 100;
    diagnostics = diagnostics_of(cluster_of({shared}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].message.find("needs storage NICs") != std::string::npos);

    PodSpec two_tiers = kalos();
    two_tiers.fabric.core_oversubscription = 7;
    two_tiers.fabric.rails = 4;
    diagnostics = diagnostics_of(cluster_of({two_tiers}));
    REQUIRE(diagnostics.size() == 2);
    CHECK(diagnostics[0].key == "cluster.pods.0.fabric.core_oversubscription");
    CHECK(diagnostics[1].key == "cluster.pods.0.fabric.rails");
    CHECK(diagnostics[1].message == "applies to wiring: rail only");

    PodSpec railed = kalos();
    railed.fabric.wiring = FabricWiring::Rail;
    railed.fabric.rails = 8;
    diagnostics = diagnostics_of(cluster_of({railed}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].message ==
          "rail wiring takes one rail per compute NIC, and this pod's nodes have 4: rails must be 4 (or 0)");
    railed.fabric.rails = 4;
    CHECK(diagnostics_of(cluster_of({railed})).empty());
  }
  SECTION("storage on the spines takes one more spine port")
  {
    PodSpec pod = seren();
    pod.fabric.spine_radix = 15; // 15 leaves + 1 storage cable
    const auto diagnostics = diagnostics_of(cluster_of({pod}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].key == "cluster.pods.0.fabric.spine_radix");
    CHECK(diagnostics[0].message.find("16") != std::string::npos);
    pod.fabric.spine_radix = 16;
    CHECK(diagnostics_of(cluster_of({pod})).empty());
  }
  SECTION("explicit nodes per leaf beyond the leaf radix")
  {
    PodSpec pod = seren();
    pod.fabric.nodes_per_leaf = 40; // no port left for an uplink
    CHECK(has_key(diagnostics_of(cluster_of({pod})), "cluster.pods.0.fabric.nodes_per_leaf"));
  }
  SECTION("flows per NIC without ECMP, which they would not change")
  {
    PodSpec pod = kalos();
    pod.fabric.flows_per_nic = 4;
    const auto diagnostics = diagnostics_of(cluster_of({pod}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].key == "cluster.pods.0.fabric.flows_per_nic");
    CHECK(diagnostics[0].message.find("ecmp") != std::string::npos);
    pod.fabric.routing = FabricRouting::Ecmp;
    CHECK(diagnostics_of(cluster_of({pod})).empty());
  }
  SECTION("every problem at once, and the message names the key")
  {
    PodSpec pod = seren();
    pod.nodes = 0;
    pod.gpus_per_node = 0;
    PodSpec twin = seren(); // same name as the first pod
    const ClusterSpec spec = cluster_of({pod, twin});
    const auto diagnostics = diagnostics_of(spec);
    CHECK(diagnostics.size() == 3);
    CHECK(has_key(diagnostics, "cluster.pods.1.name"));
    try {
      Topology topology(spec);
      FAIL("expected an InputError");
    } catch (const InputError& error) {
      CHECK(std::string(error.what()).find("cluster.pods.0.gpus_per_node") != std::string::npos);
    }
  }
  SECTION("no pod")
  {
    CHECK(has_key(diagnostics_of(cluster_of({})), "cluster.pods"));
  }
}
