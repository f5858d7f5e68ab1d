#include "sim/engine/PlatformBuilder.hpp"

#include "sim/engine/FabricZone.hpp"

#include <simgrid/s4u.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace acmesim {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace {

using Vertex = TopologyGraph::vertex_descriptor;

constexpr double NODE_SPEED_FLOPS = 1e12; // nominal: jobs are timed by the scheduler, not by flops

struct CableLinks {
  std::vector<sg4::Link*> node_leaf;    // [NodeId]
  std::vector<sg4::Link*> node_storage; // [NodeId], pods with storage NICs
  std::unordered_map<const sg4::Link*, Platform::LinkRole> roles;
};

// Notes both directions of a split-duplex cable of the fabric (a shared one has none to tell apart).
void note_role(CableLinks& cables, sg4::Link* link, LeafId leaf, bool uplink, bool core = false)
{
  if (const auto* duplex = dynamic_cast<sg4::SplitDuplexLink*>(link)) {
    cables.roles[duplex->get_link_up()] = {leaf, uplink, true, core};
    cables.roles[duplex->get_link_down()] = {leaf, uplink, false, core};
  }
}

// The first leaf of the block of a pod's spine `spine`: core cables belong to it in LinkRoles.
LeafId block_leaf(const Topology& topology, int pod, std::size_t spine)
{
  const PodSpec& spec = topology.spec().pods[static_cast<std::size_t>(pod)];
  const auto block = spine / static_cast<std::size_t>(derived_uplinks_per_leaf(spec));
  return topology.leaves_of_pod(pod)[block * static_cast<std::size_t>(leaves_per_block(spec))];
}

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

// Creates one link per cable of the graph and gives the zone the switch cables.
CableLinks create_links(const Topology& topology, FabricZone& fabric, CableSharing sharing)
{
  const TopologyGraph& graph = topology.graph();
  CableLinks cables;
  // Split-duplex cables: a leaf's spine cables pooled (see the header), by leaf vertex, and a
  // block's core cables, by the first leaf of the block.
  std::map<Vertex, TopologyEdge> uplinks;
  std::map<LeafId, std::pair<std::vector<Vertex>, TopologyEdge>> core_uplinks;
  cables.node_leaf.resize(topology.node_count(), nullptr);
  cables.node_storage.resize(topology.node_count(), nullptr);
  for (auto [it, end] = boost::edges(graph); it != end; ++it) {
    Vertex a = boost::source(*it, graph);
    Vertex b = boost::target(*it, graph);
    if (graph[a].kind > graph[b].kind) // order the ends as Node < Leaf < Spine < Storage
      std::swap(a, b);
    const TopologyVertex& lower = graph[a];
    const TopologyVertex& upper = graph[b];
    const FabricSpec& fabric_spec = topology.spec().pods[static_cast<std::size_t>(lower.pod)].fabric;
    const bool pool_uplinks = sharing == CableSharing::Duplex && fabric_spec.routing == FabricRouting::Pooled;
    if (pool_uplinks && lower.kind == VertexKind::Leaf && upper.kind == VertexKind::Spine) {
      TopologyEdge& bundle = uplinks[a];
      bundle.bandwidth_Bps += graph[*it].bandwidth_Bps;
      bundle.latency_s = graph[*it].latency_s;
      continue;
    }
    if (pool_uplinks && lower.kind == VertexKind::Spine && upper.kind == VertexKind::Core) {
      auto& [spines, bundle] = core_uplinks[block_leaf(topology, lower.pod, lower.index)];
      spines.push_back(a);
      bundle.bandwidth_Bps += graph[*it].bandwidth_Bps;
      bundle.latency_s = graph[*it].latency_s;
      continue;
    }
    sg4::Link* link = create_cable(fabric.get_iface(), graph[*it], sharing);
    if (lower.kind == VertexKind::Node && upper.kind == VertexKind::Leaf) {
      cables.node_leaf[lower.index] = link;
      note_role(cables, link, upper.index, false);
    } else if (lower.kind == VertexKind::Node && upper.kind == VertexKind::Storage) {
      cables.node_storage[lower.index] = link;
    } else if (lower.kind == VertexKind::Leaf && upper.kind == VertexKind::Spine) {
      fabric.set_leaf_spine(lower.pod, lower.index - topology.leaves_of_pod(lower.pod).front(), upper.index,
                            FabricZone::cable_of(link));
      note_role(cables, link, lower.index, true);
    } else if (lower.kind == VertexKind::Spine && upper.kind == VertexKind::Core) {
      fabric.set_spine_core(lower.pod, lower.index, FabricZone::cable_of(link));
      note_role(cables, link, block_leaf(topology, lower.pod, lower.index), true, true);
    } else if (lower.kind == VertexKind::Spine && upper.kind == VertexKind::Storage) {
      fabric.set_spine_storage(lower.pod, lower.index, FabricZone::cable_of(link));
    } else {
      throw std::logic_error("build_platform: unexpected cable " + graph[*it].name);
    }
  }
  // One link per leaf for all its spine cables: every route through a spine of that leaf uses it.
  for (auto& [leaf_vertex, bundle] : uplinks) {
    const TopologyVertex& leaf = graph[leaf_vertex];
    bundle.name = uplinks_name(leaf.name);
    sg4::Link* link = create_cable(fabric.get_iface(), bundle, sharing);
    note_role(cables, link, leaf.index, true);
    const FabricZone::Cable cable = FabricZone::cable_of(link);
    const PodSpec& spec = topology.spec().pods[static_cast<std::size_t>(leaf.pod)];
    const auto spines = static_cast<std::size_t>(derived_uplinks_per_leaf(spec));
    const std::size_t local_leaf = leaf.index - topology.leaves_of_pod(leaf.pod).front();
    const std::size_t first = local_leaf / static_cast<std::size_t>(leaves_per_block(spec)) * spines;
    for (std::size_t spine = first; spine < first + spines; ++spine)
      fabric.set_leaf_spine(leaf.pod, local_leaf, spine, cable);
  }
  // One link per block for all its spines' core cables, as for a leaf's spine cables.
  for (auto& [first_leaf, spines_and_bundle] : core_uplinks) {
    auto& [spines, bundle] = spines_and_bundle;
    const TopologyVertex& leaf = graph[topology.leaf_vertex(first_leaf)];
    const PodSpec& spec = topology.spec().pods[static_cast<std::size_t>(leaf.pod)];
    const std::size_t local_leaf = first_leaf - topology.leaves_of_pod(leaf.pod).front();
    bundle.name = spec.name + "-block" + std::to_string(local_leaf / static_cast<std::size_t>(leaves_per_block(spec))) +
                  "-core";
    sg4::Link* link = create_cable(fabric.get_iface(), bundle, sharing);
    note_role(cables, link, first_leaf, true, true);
    for (const Vertex spine : spines)
      fabric.set_spine_core(leaf.pod, graph[spine].index, FabricZone::cable_of(link));
  }
  return cables;
}

} // namespace

std::string uplinks_name(const std::string& leaf) { return leaf + "-uplinks"; }

Platform build_platform(const Topology& topology, CableSharing sharing, std::uint64_t ecmp_seed)
{
  if (!sg4::Engine::has_instance())
    throw std::logic_error("build_platform: create the simgrid::s4u::Engine first");
  // Our root zone must be the engine's root, which SimGrid makes of the first zone created.
  if (sg4::Engine::get_instance()->get_netzone_root() != nullptr)
    throw std::logic_error("build_platform: the engine already has a platform (build it once per engine)");

  const ClusterSpec& spec = topology.spec();
  const TopologyGraph& graph = topology.graph();
  // The only zone, hence the engine's root (SimGrid makes the first zone created its root and deletes it).
  auto* fabric = new FabricZone("cluster", topology, ecmp_seed);
  sg4::NetZone* zone = fabric->get_iface();
  // Switches carry no routing logic here, but as routers they keep the platform readable (graph exports).
  for (std::size_t p = 0; p < spec.pods.size(); ++p) {
    const int pod_index = static_cast<int>(p);
    for (LeafId leaf : topology.leaves_of_pod(pod_index))
      zone->create_router(graph[topology.leaf_vertex(leaf)].name);
    for (Vertex spine : topology.spine_vertices(pod_index))
      zone->create_router(graph[spine].name);
    for (Vertex core : topology.core_vertices(pod_index))
      zone->create_router(graph[core].name);
  }

  Platform platform;
  platform.sharing = sharing;
  platform.node_hosts.reserve(topology.node_count());
  for (NodeId n = 0; n < topology.node_count(); ++n) {
    const PodSpec& pod_spec = spec.pods[static_cast<std::size_t>(topology.pod_of(n))];
    // Properties before seal(): plugins read them in Host::on_creation, which seal() fires.
    sg4::Host* host = zone->create_host(topology.node_name(n), NODE_SPEED_FLOPS)
                          ->set_core_count(pod_spec.gpus_per_node)
                          ->set_property("pod", pod_spec.name)
                          ->set_property("leaf", graph[topology.leaf_vertex(topology.leaf_of(n))].name)
                          ->set_property("gpus", std::to_string(pod_spec.gpus_per_node));
    platform.node_hosts.push_back(host->seal());
  }

  CableLinks cables = create_links(topology, *fabric, sharing);
  platform.compute_cables = cables.node_leaf;
  platform.link_roles = std::move(cables.roles);
  for (NodeId n = 0; n < topology.node_count(); ++n) {
    const NetPoint* host = platform.node_hosts[n]->get_netpoint();
    const int pod = topology.pod_of(n);
    const std::size_t leaf = topology.leaf_of(n) - topology.leaves_of_pod(pod).front();
    const std::size_t index = n - topology.first_node_of_pod(pod);
    const FabricZone::Cable to_storage =
        cables.node_storage[n] != nullptr ? FabricZone::cable_of(cables.node_storage[n]) : FabricZone::Cable{};
    fabric->add_node(host, pod, leaf, index, FabricZone::cable_of(cables.node_leaf[n]), to_storage);
  }
  platform.flow_hosts.resize(topology.node_count());
  if (sharing == CableSharing::Duplex)
    for (NodeId n = 0; n < topology.node_count(); ++n) {
      const PodSpec& pod_spec = spec.pods[static_cast<std::size_t>(topology.pod_of(n))];
      const auto flows = static_cast<std::uint32_t>(flows_per_peer(pod_spec));
      for (std::uint32_t flow = 1; flow < flows; ++flow) {
        sg4::Host* host = zone->create_host(topology.node_name(n) + "-flow" + std::to_string(flow), NODE_SPEED_FLOPS)
                              ->set_core_count(1)
                              ->seal();
        fabric->add_flow_host(host->get_netpoint(), n, flow);
        platform.flow_hosts[n].push_back(host);
      }
    }

  platform.storage_host = zone->create_host("storage", NODE_SPEED_FLOPS)->set_core_count(1)->seal();
  platform.storage_service_link = zone->create_link("storage-service", spec.storage.bandwidth_GBps * 1e9)
                                      ->set_latency(spec.storage.latency_us * 1e-6)
                                      ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                                      ->seal();
  fabric->set_storage(platform.storage_host->get_netpoint(), FabricZone::cable_of(platform.storage_service_link));
  zone->seal();
  return platform;
}

} // namespace acmesim
