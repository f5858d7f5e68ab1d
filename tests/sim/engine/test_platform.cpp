// SimGrid platform built from the Topology: host count, routes (links and latency) and link
// bandwidths. One engine per process: each TEST_CASE runs in its own process under ctest and
// builds one engine; no SECTION here, since Catch re-runs the whole test case for each section.
#include "sim/engine/PlatformBuilder.hpp"

#include <catch2/catch.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>

#include <map>
#include <string>
#include <vector>

using namespace acmesim;
namespace sg4 = simgrid::s4u;

namespace {

// 6 nodes, 2 per leaf (3 leaves); a 4-port leaf keeps 2 ports for uplinks, hence 2 spines.
PodSpec tiny_pod(const std::string& name, int nodes, int storage_nics)
{
  PodSpec pod;
  pod.name = name;
  pod.nodes = nodes;
  pod.gpus_per_node = 8;
  pod.compute_nics = 1;
  pod.storage_nics = storage_nics;
  pod.nic_bandwidth_Gbps = 200;         // 25 GB/s
  pod.fabric.leaf_radix = 4;
  pod.fabric.spine_radix = 8;
  pod.fabric.nodes_per_leaf = 2;
  pod.fabric.port_bandwidth_Gbps = 100; // 12.5 GB/s: switch cables differ from node cables
  pod.fabric.link_latency_us = 1.0;
  return pod;
}

ClusterSpec cluster_of(std::vector<PodSpec> pods)
{
  ClusterSpec spec;
  spec.name = "tiny";
  spec.pods = std::move(pods);
  spec.storage.bandwidth_GBps = 10;
  spec.storage.latency_us = 10;
  return spec;
}

struct Route {
  std::vector<std::string> links;
  double latency = 0;
};

Route route(const sg4::Host* from, const sg4::Host* to)
{
  std::vector<sg4::Link*> links;
  Route result;
  from->route_to(to, links, &result.latency);
  for (const sg4::Link* link : links)
    result.links.push_back(link->get_name());
  return result;
}

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("one pod: hosts, routes over leaves and spines, storage path, link bandwidths", "[platform]")
{
  sg4::Engine engine("test");
  const Topology topology(cluster_of({tiny_pod("t", 6, 0)}));
  REQUIRE(topology.leaf_count() == 3);
  REQUIRE(topology.spine_count() == 2);
  const Platform platform = build_platform(topology);

  CHECK(engine.get_host_count() == 7); // 6 nodes + storage
  REQUIRE(platform.node_hosts.size() == 6);
  REQUIRE(platform.storage_host != nullptr);
  CHECK(platform.storage_host->get_name() == "storage");
  const auto& hosts = platform.node_hosts;
  CHECK(hosts[4]->get_name() == "t-n4");
  CHECK(hosts[4]->get_core_count() == 8);
  CHECK(hosts[4]->get_property("pod") == std::string("t"));
  CHECK(hosts[4]->get_property("leaf") == std::string("t-leaf2"));
  CHECK(hosts[4]->get_property("gpus") == std::string("8"));

  { // same leaf: node cable, node cable
    const Route r = route(hosts[0], hosts[1]);
    CHECK(r.links == Names{"t-n0-leaf0", "t-n1-leaf0"});
    CHECK(r.latency == Approx(2e-6));
    CHECK(route(hosts[1], hosts[0]).links == Names{"t-n1-leaf0", "t-n0-leaf0"});
  }
  { // across leaves: through the spine chosen by the destination (index mod 2)
    const Route r = route(hosts[0], hosts[2]);
    CHECK(r.links == Names{"t-n0-leaf0", "t-leaf0-spine0", "t-leaf1-spine0", "t-n2-leaf1"});
    CHECK(r.latency == Approx(4e-6));
    CHECK(route(hosts[0], hosts[3]).links == Names{"t-n0-leaf0", "t-leaf0-spine1", "t-leaf1-spine1", "t-n3-leaf1"});
    CHECK(route(hosts[3], hosts[0]).links == Names{"t-n3-leaf1", "t-leaf1-spine0", "t-leaf0-spine0", "t-n0-leaf0"});
  }
  { // storage: compute NIC, leaf, spine, then the storage service
    const Route up = route(hosts[3], platform.storage_host);
    CHECK(up.links == Names{"t-n3-leaf1", "t-leaf1-spine1", "t-spine1-storage", "storage-service"});
    CHECK(up.latency == Approx(3e-6 + 10e-6));
    CHECK(route(platform.storage_host, hosts[3]).links ==
          Names{"storage-service", "t-spine1-storage", "t-leaf1-spine1", "t-n3-leaf1"});
    CHECK(platform.storage_service_link->get_bandwidth() == Approx(10e9));
  }
  { // switches are routers that no route starts or ends at
    const auto* leaf = engine.netpoint_by_name_or_null("t-leaf1");
    REQUIRE(leaf != nullptr);
    std::vector<simgrid::kernel::resource::StandardLinkImpl*> links;
    double latency = 0;
    CHECK_THROWS_WITH(simgrid::kernel::routing::NetZoneImpl::get_global_route(hosts[0]->get_netpoint(), leaf, links,
                                                                              &latency),
                      Catch::Contains("no route from t-n0 to t-leaf1"));
  }
  { // every cable of the graph is a link of its bandwidth and latency
    const TopologyGraph& graph = topology.graph();
    for (auto [it, end] = boost::edges(graph); it != end; ++it) {
      const TopologyEdge& edge = graph[*it];
      const sg4::Link* link = engine.link_by_name_or_null(edge.name);
      REQUIRE(link != nullptr);
      CHECK(link->get_bandwidth() == Approx(edge.bandwidth_Bps));
      CHECK(link->get_latency() == Approx(edge.latency_s));
      CHECK(link->get_sharing_policy() == sg4::Link::SharingPolicy::SHARED);
    }
    CHECK(engine.link_by_name("t-n0-leaf0")->get_bandwidth() == Approx(25e9));
    CHECK(engine.link_by_name("t-leaf0-spine1")->get_bandwidth() == Approx(12.5e9));
  }
  { // a transfer across leaves is paced by the 12.5 GB/s spine cables
    double finished = -1;
    sg4::Actor::create("sender", hosts[0], [&] {
      sg4::Comm::sendto(hosts[0], hosts[2], 1'000'000'000);
      finished = sg4::Engine::get_clock();
    });
    engine.run();
    // 1 GB / 12.5 GB/s = 0.08 s, stretched by the default LV08 model (97% of the bandwidth usable and a 5%
    // cross-traffic share of it taken by acknowledgements on these SHARED links) and its 13.01x latency factor.
    const double expected = 1e9 / (12.5e9 * 0.97 / 1.05) + 13.01 * 4e-6;
    CHECK(finished == Approx(expected).epsilon(0.01));
  }
}

TEST_CASE("three tiers: blocks of leaves and spines, spine k of each block to core plane k", "[platform]")
{
  // 8 nodes, 2 a leaf, 2 leaves a block (nodes_per_block 4): 2 blocks of 2 spines each. A spine
  // has 2 leaf ports and, at 2:1 toward the core, 1 core port (12.5 GB/s).
  sg4::Engine engine("test");
  PodSpec pod = tiny_pod("t", 8, 1);
  pod.fabric.nodes_per_block = 4;
  pod.fabric.core_oversubscription = 2;
  const Topology topology(cluster_of({pod}));
  REQUIRE(topology.leaf_count() == 4);
  REQUIRE(topology.spine_count() == 4);
  REQUIRE(topology.core_vertices(0).size() == 2);
  CHECK(topology.hop_distance(0, 1) == 2);
  CHECK(topology.hop_distance(0, 2) == 4); // another leaf of the block
  CHECK(topology.hop_distance(0, 4) == 6); // another block: through the core
  const Platform platform = build_platform(topology);
  const auto& hosts = platform.node_hosts;

  // Within a block: its own spines, as two tiers.
  CHECK(route(hosts[0], hosts[2]).links == Names{"t-n0-leaf0", "t-leaf0-spine0", "t-leaf1-spine0", "t-n2-leaf1"});
  CHECK(route(hosts[4], hosts[7]).links == Names{"t-n4-leaf2", "t-leaf2-spine3", "t-leaf3-spine3", "t-n7-leaf3"});
  // Across blocks: up to spine k of the first block (k by the destination, index mod 2), its core
  // cable to plane k, down spine k of the other block's core cable.
  const Route across = route(hosts[0], hosts[5]);
  CHECK(across.links == Names{"t-n0-leaf0", "t-leaf0-spine1", "t-spine1-core1", "t-spine3-core1", "t-leaf2-spine3",
                              "t-n5-leaf2"});
  CHECK(across.latency == Approx(6e-6));
  CHECK(sg4::Link::by_name("t-spine1-core1")->get_bandwidth() == Approx(12.5e9));
  // Storage stays on the nodes' storage NICs.
  CHECK(route(hosts[5], platform.storage_host).links == Names{"t-n5-storage", "storage-service"});
}

TEST_CASE("two pods: every node reaches storage, pods meet only through it", "[platform]")
{
  sg4::Engine engine("test");
  const Topology topology(cluster_of({tiny_pod("a", 5, 0), tiny_pod("b", 3, 1)}));
  const Platform platform = build_platform(topology);
  CHECK(engine.get_host_count() == 9);
  REQUIRE(platform.node_hosts.size() == 8);

  for (NodeId node = 0; node < topology.node_count(); ++node) {
    const Route up = route(platform.node_hosts[node], platform.storage_host);
    INFO("node " << topology.node_name(node));
    REQUIRE(!up.links.empty());
    CHECK(up.links.back() == "storage-service");
    // Pod a reaches storage through leaf, spine and the spine's storage cable; pod b through its storage NIC.
    CHECK(up.links.size() == (topology.pod_of(node) == 0 ? 4u : 2u));
  }
  CHECK(route(platform.node_hosts[6], platform.storage_host).links == Names{"b-n1-storage", "storage-service"});
  // Pod b nodes use the compute fabric between them, never their storage NICs.
  CHECK(route(platform.node_hosts[5], platform.node_hosts[7]).links ==
        Names{"b-n0-leaf0", "b-leaf0-spine0", "b-leaf1-spine0", "b-n2-leaf1"});
  // Across pods: up one storage path, through the storage service, down the other.
  CHECK(route(platform.node_hosts[0], platform.node_hosts[6]).links ==
        Names{"a-n0-leaf0", "a-leaf0-spine0", "a-spine0-storage", "storage-service", "b-n1-storage"});
}

TEST_CASE("the Acme presets build: 588 nodes plus storage, routes of the expected length", "[platform]")
{
  sg4::Engine engine("test");
  ClusterSpec spec;
  spec.name = "acme";
  PodSpec seren; // configs/clusters/seren.yaml
  seren.name = "seren";
  seren.nodes = 286;
  seren.compute_nics = 1;
  seren.storage_nics = 0;
  seren.fabric.spine_radix = 40;
  PodSpec kalos; // configs/clusters/kalos.yaml
  kalos.name = "kalos";
  kalos.nodes = 302;
  kalos.compute_nics = 4;
  kalos.storage_nics = 1;
  kalos.fabric.spine_radix = 800;
  spec.pods = {seren, kalos};
  spec.storage.bandwidth_GBps = 588;
  const Topology topology(spec);
  const Platform platform = build_platform(topology);
  CHECK(engine.get_host_count() == 589);
  CHECK_THROWS_AS(build_platform(topology), std::logic_error); // one platform per engine

  const auto& hosts = platform.node_hosts;
  CHECK(route(hosts[0], hosts[19]).links.size() == 2);
  CHECK(route(hosts[0], hosts[285]).links == Names{"seren-n0-leaf0", "seren-leaf0-spine5", "seren-leaf14-spine5",
                                                   "seren-n285-leaf14"}); // 285 mod 20 = 5
  CHECK(route(hosts[0], platform.storage_host).links.size() == 4);
  CHECK(route(hosts[300], platform.storage_host).links == Names{"kalos-n14-storage", "storage-service"});
  // Kalos nodes on different leaves cross the spines (4 cables), not their storage NICs (2 cables).
  CHECK(route(hosts[286], hosts[300]).links.size() == 4);
  // Routes agree with the graph's hop distance wherever both exist.
  for (NodeId a = 0; a < topology.node_count(); a += 37)
    for (NodeId b = 0; b < topology.node_count(); b += 41)
      if (a != b && topology.hop_distance(a, b) > 0) {
        INFO(topology.node_name(a) << " -> " << topology.node_name(b));
        CHECK(route(hosts[a], hosts[b]).links.size() == static_cast<std::size_t>(topology.hop_distance(a, b)));
      }
}

TEST_CASE("cross-leaf traffic spreads evenly over the spines", "[platform]")
{
  sg4::Engine engine("test");
  PodSpec pod = tiny_pod("s", 32, 0); // 8 leaves of 4 nodes, 4 spines
  pod.fabric.leaf_radix = 8;
  pod.fabric.spine_radix = 16;
  pod.fabric.nodes_per_leaf = 4;
  const Topology topology(cluster_of({pod}));
  REQUIRE(topology.leaf_count() == 8);
  REQUIRE(topology.spine_count() == 4);
  const Platform platform = build_platform(topology);
  const auto& hosts = platform.node_hosts;

  // Every node of leaf 0 to every node of the other leaves: each of leaf 0's spine cables carries the
  // same number of routes, and so does each spine's cable down to every leaf.
  std::map<std::string, int> uses;
  for (NodeId a = 0; a < 4; ++a)
    for (NodeId b = 4; b < 32; ++b) {
      const Route r = route(hosts[a], hosts[b]);
      REQUIRE(r.links.size() == 4);
      ++uses[r.links[1]];
      ++uses[r.links[2]];
    }
  for (int spine = 0; spine < 4; ++spine) {
    INFO("spine " << spine);
    CHECK(uses["s-leaf0-spine" + std::to_string(spine)] == 4 * 28 / 4);
    for (int leaf = 1; leaf < 8; ++leaf)
      CHECK(uses["s-leaf" + std::to_string(leaf) + "-spine" + std::to_string(spine)] == 4 * 4 / 4);
  }
  // Storage traffic leaves through the spine of the node's own index, so it spreads too.
  std::map<std::string, int> storage_uses;
  for (NodeId n = 0; n < 32; ++n)
    ++storage_uses[route(hosts[n], platform.storage_host).links.at(2)];
  CHECK(storage_uses == std::map<std::string, int>{{"s-spine0-storage", 8},
                                                   {"s-spine1-storage", 8},
                                                   {"s-spine2-storage", 8},
                                                   {"s-spine3-storage", 8}});
}

TEST_CASE("a 65,536-GPU pod builds without a route table; split-duplex routes go up, then down", "[platform]")
{
  // Routes are worked out on request (FabricZone), so the platform grows with the nodes, not with their
  // pairs: a table of the 8,192^2 pairs would not fit in memory.
  sg4::Engine engine("test");
  PodSpec pod = tiny_pod("big", 8192, 0);
  pod.fabric.leaf_radix = 40;   // 20 nodes and 20 spine ports per leaf
  pod.fabric.nodes_per_leaf = 0;
  pod.fabric.spine_radix = 0;   // derived: a port per leaf and one for storage
  const Topology topology(cluster_of({pod}));
  REQUIRE(topology.leaf_count() == 410); // the last leaf holds 12 nodes
  REQUIRE(topology.spine_count() == 20);
  const Platform platform = build_platform(topology, CableSharing::Duplex);
  CHECK(engine.get_host_count() == 8193);
  const auto& hosts = platform.node_hosts;

  // A leaf's spine cables are one pooled link under Duplex (PlatformBuilder.hpp).
  CHECK(route(hosts[0], hosts[8191]).links ==
        Names{"big-n0-leaf0_UP", "big-leaf0-uplinks_UP", "big-leaf409-uplinks_DOWN", "big-n8191-leaf409_DOWN"});
  CHECK(route(hosts[8191], hosts[8180]).links == Names{"big-n8191-leaf409_UP", "big-n8180-leaf409_DOWN"});
  const Route up = route(hosts[8191], platform.storage_host); // 8191 mod 20 = 11
  CHECK(up.links == Names{"big-n8191-leaf409_UP", "big-leaf409-uplinks_UP", "big-spine11-storage_UP", "storage-service"});
  CHECK(up.latency == Approx(3e-6 + 10e-6));
  CHECK(route(platform.storage_host, hosts[8191]).links ==
        Names{"storage-service", "big-spine11-storage_DOWN", "big-leaf409-uplinks_DOWN", "big-n8191-leaf409_DOWN"});
}
