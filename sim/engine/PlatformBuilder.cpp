#include "sim/engine/PlatformBuilder.hpp"

#include "sim/engine/PodFabricZone.hpp"

#include <simgrid/s4u.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace acmesim {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace {

using Vertex = TopologyGraph::vertex_descriptor;

constexpr double NODE_SPEED_FLOPS = 1e12; // nominal: jobs are timed by the scheduler, not by flops

// SimGrid objects of one pod: its zone, which routes from the cables it is given (PodFabricZone), and the
// router that stands for the pod's side of the storage network.
struct PodPlatform {
  PodFabricZone* fabric = nullptr;
  sg4::NetZone* zone = nullptr; // fabric's s4u interface
  NetPoint* storage_gateway = nullptr;
};

struct CableLinks {
  std::vector<sg4::Link*> node_leaf;    // [NodeId]
  std::vector<sg4::Link*> node_storage; // [NodeId], pods with storage NICs
};

sg4::Link* create_cable(sg4::NetZone* zone, const TopologyEdge& edge, CableSharing sharing)
{
  // Failures turn cables off and on (no state profiles, which abort SimGrid 3.32 on split-duplex links).
  if (sharing == CableSharing::Duplex) {
    sg4::SplitDuplexLink* link = zone->create_split_duplex_link(edge.name, edge.bandwidth_Bps);
    link->set_latency(edge.latency_s);
    return link->seal();
  }
  return zone->create_link(edge.name, edge.bandwidth_Bps)
      ->set_latency(edge.latency_s)
      ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
      ->seal();
}

// Creates one link per cable of the graph, in the zone of the pod the cable belongs to.
CableLinks create_links(const Topology& topology, std::vector<PodPlatform>& pods, CableSharing sharing)
{
  const TopologyGraph& graph = topology.graph();
  CableLinks cables;
  // Split-duplex cables: a leaf's spine cables pooled (see the header), by leaf vertex.
  std::map<Vertex, TopologyEdge> uplinks;
  cables.node_leaf.resize(topology.node_count(), nullptr);
  cables.node_storage.resize(topology.node_count(), nullptr);
  for (auto [it, end] = boost::edges(graph); it != end; ++it) {
    Vertex a = boost::source(*it, graph);
    Vertex b = boost::target(*it, graph);
    if (graph[a].kind > graph[b].kind) // order the ends as Node < Leaf < Spine < Storage
      std::swap(a, b);
    const TopologyVertex& lower = graph[a];
    const TopologyVertex& upper = graph[b];
    PodPlatform& pod = pods.at(static_cast<std::size_t>(lower.pod));
    if (sharing == CableSharing::Duplex && lower.kind == VertexKind::Leaf && upper.kind == VertexKind::Spine) {
      TopologyEdge& bundle = uplinks[a];
      bundle.bandwidth_Bps += graph[*it].bandwidth_Bps;
      bundle.latency_s = graph[*it].latency_s;
      continue;
    }
    sg4::Link* link = create_cable(pod.zone, graph[*it], sharing);
    if (lower.kind == VertexKind::Node && upper.kind == VertexKind::Leaf) {
      cables.node_leaf[lower.index] = link;
    } else if (lower.kind == VertexKind::Node && upper.kind == VertexKind::Storage) {
      cables.node_storage[lower.index] = link;
    } else if (lower.kind == VertexKind::Leaf && upper.kind == VertexKind::Spine) {
      pod.fabric->set_leaf_spine(lower.index - topology.leaves_of_pod(lower.pod).front(), upper.index,
                                 PodFabricZone::cable_of(link));
    } else if (lower.kind == VertexKind::Spine && upper.kind == VertexKind::Storage) {
      pod.fabric->set_spine_storage(lower.index, PodFabricZone::cable_of(link));
    } else {
      throw std::logic_error("build_platform: unexpected cable " + graph[*it].name);
    }
  }
  // One link per leaf for all its spine cables: every route through a spine of that leaf uses it.
  for (auto& [leaf_vertex, bundle] : uplinks) {
    const TopologyVertex& leaf = graph[leaf_vertex];
    PodPlatform& pod = pods.at(static_cast<std::size_t>(leaf.pod));
    bundle.name = uplinks_name(leaf.name);
    const PodFabricZone::Cable cable = PodFabricZone::cable_of(create_cable(pod.zone, bundle, sharing));
    const std::size_t spines = topology.spine_vertices(leaf.pod).size();
    const std::size_t local_leaf = leaf.index - topology.leaves_of_pod(leaf.pod).front();
    for (std::size_t spine = 0; spine < spines; ++spine)
      pod.fabric->set_leaf_spine(local_leaf, spine, cable);
  }
  return cables;
}

// Gives a pod's zone its nodes, in order, with their cables: the zone routes from them.
void add_pod_nodes(const Topology& topology, int p, const PodPlatform& pod, const CableLinks& cables,
                   const std::vector<sg4::Host*>& hosts)
{
  const NodeId first = topology.first_node_of_pod(p);
  const NodeId last = first + static_cast<NodeId>(topology.spec().pods[static_cast<std::size_t>(p)].nodes);
  const LeafId first_leaf = topology.leaves_of_pod(p).front();
  for (NodeId n = first; n < last; ++n) {
    const PodFabricZone::Cable to_leaf = PodFabricZone::cable_of(cables.node_leaf[n]);
    if (cables.node_storage[n] != nullptr) {
      const PodFabricZone::Cable to_storage = PodFabricZone::cable_of(cables.node_storage[n]);
      pod.fabric->add_node(hosts[n]->get_netpoint(), topology.leaf_of(n) - first_leaf, to_leaf, &to_storage);
    } else {
      pod.fabric->add_node(hosts[n]->get_netpoint(), topology.leaf_of(n) - first_leaf, to_leaf, nullptr);
    }
  }
  pod.fabric->set_storage_gateway(pod.storage_gateway);
}

} // namespace

std::string uplinks_name(const std::string& leaf) { return leaf + "-uplinks"; }

Platform build_platform(const Topology& topology, CableSharing sharing)
{
  if (!sg4::Engine::has_instance())
    throw std::logic_error("build_platform: create the simgrid::s4u::Engine first");
  // Our root zone must be the engine's root, which SimGrid makes of the first zone created.
  if (sg4::Engine::get_instance()->get_netzone_root() != nullptr)
    throw std::logic_error("build_platform: the engine already has a platform (build it once per engine)");

  const ClusterSpec& spec = topology.spec();
  const TopologyGraph& graph = topology.graph();
  sg4::NetZone* root = sg4::create_full_zone("root");

  std::vector<PodPlatform> pods(spec.pods.size());
  for (std::size_t p = 0; p < spec.pods.size(); ++p) {
    const int pod_index = static_cast<int>(p);
    PodPlatform& pod = pods[p];
    // SimGrid owns the zone once it has a parent, as it owns those of create_full_zone.
    pod.fabric = new PodFabricZone("pod:" + spec.pods[p].name, topology.leaves_of_pod(pod_index).size(),
                                   topology.spine_vertices(pod_index).size());
    pod.zone = pod.fabric->get_iface()->set_parent(root);
    // Switches carry no routing logic here, but as routers they keep the platform readable (graph exports).
    for (LeafId leaf : topology.leaves_of_pod(pod_index))
      pod.zone->create_router(graph[topology.leaf_vertex(leaf)].name);
    for (Vertex spine : topology.spine_vertices(pod_index))
      pod.zone->create_router(graph[spine].name);
    pod.storage_gateway = pod.zone->create_router(spec.pods[p].name + "-storage-gw");
  }

  Platform platform;
  platform.node_hosts.reserve(topology.node_count());
  for (NodeId n = 0; n < topology.node_count(); ++n) {
    const int p = topology.pod_of(n);
    const PodSpec& pod_spec = spec.pods[static_cast<std::size_t>(p)];
    // Properties before seal(): plugins read them in Host::on_creation, which seal() fires.
    sg4::Host* host = pods[static_cast<std::size_t>(p)]
                          .zone->create_host(topology.node_name(n), NODE_SPEED_FLOPS)
                          ->set_core_count(pod_spec.gpus_per_node)
                          ->set_property("pod", pod_spec.name)
                          ->set_property("leaf", graph[topology.leaf_vertex(topology.leaf_of(n))].name)
                          ->set_property("gpus", std::to_string(pod_spec.gpus_per_node));
    platform.node_hosts.push_back(host->seal());
  }

  const CableLinks cables = create_links(topology, pods, sharing);
  platform.compute_cables = cables.node_leaf;
  for (std::size_t p = 0; p < pods.size(); ++p) {
    add_pod_nodes(topology, static_cast<int>(p), pods[p], cables, platform.node_hosts);
    pods[p].zone->seal();
  }

  // Storage has its own zone: a host beside sub-zones breaks routing in 3.32. Being the zone's only host, it is
  // also the zone's gateway.
  sg4::NetZone* storage_zone = sg4::create_full_zone("storage-zone")->set_parent(root);
  platform.storage_host = storage_zone->create_host("storage", NODE_SPEED_FLOPS)->set_core_count(1)->seal();
  storage_zone->seal();
  platform.storage_service_link = root->create_link("storage-service", spec.storage.bandwidth_GBps * 1e9)
                                      ->set_latency(spec.storage.latency_us * 1e-6)
                                      ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                                      ->seal();
  const std::vector<sg4::LinkInRoute> service{sg4::LinkInRoute(platform.storage_service_link)};
  for (std::size_t p = 0; p < pods.size(); ++p) {
    root->add_route(pods[p].zone->get_netpoint(), storage_zone->get_netpoint(), pods[p].storage_gateway,
                    platform.storage_host->get_netpoint(), service, true);
    // Pods share no fabric: their traffic meets in the storage network (a job never spans pods, but a route
    // must exist, or SimGrid aborts when asked for one).
    for (std::size_t q = p + 1; q < pods.size(); ++q)
      root->add_route(pods[p].zone->get_netpoint(), pods[q].zone->get_netpoint(), pods[p].storage_gateway,
                      pods[q].storage_gateway, service, true);
  }
  root->seal();
  return platform;
}

} // namespace acmesim
