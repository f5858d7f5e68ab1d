#include "sim/engine/FabricZone.hpp"

#include "models/cluster/EcmpHash.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Link.hpp>

#include <stdexcept>

namespace acmesim {

namespace {

using Route = simgrid::kernel::routing::Route;

void up(Route* route, double* latency, const FabricZone::Cable& cable)
{
  route->link_list_.push_back(cable.up);
  if (latency != nullptr)
    *latency += cable.latency_s;
}

void down(Route* route, double* latency, const FabricZone::Cable& cable)
{
  route->link_list_.push_back(cable.down);
  if (latency != nullptr)
    *latency += cable.latency_s;
}

} // namespace

FabricZone::Cable FabricZone::cable_of(simgrid::s4u::Link* link)
{
  if (link->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::SPLITDUPLEX) {
    const auto* duplex = dynamic_cast<const simgrid::s4u::SplitDuplexLink*>(link);
    if (duplex == nullptr)
      throw std::logic_error("FabricZone: " + link->get_name() + " is split-duplex but not a SplitDuplexLink");
    return {duplex->get_link_up()->get_impl(), duplex->get_link_down()->get_impl(), duplex->get_link_up()->get_latency()};
  }
  return {link->get_impl(), link->get_impl(), link->get_latency()};
}

FabricZone::FabricZone(const std::string& name, const Topology& topology, std::uint64_t ecmp_seed)
    : NetZoneImpl(name), ecmp_seed_(ecmp_seed)
{
  pods_.resize(topology.pod_count());
  for (std::size_t p = 0; p < pods_.size(); ++p) {
    Pod& pod = pods_[p];
    const PodSpec& spec = topology.spec().pods[p];
    const std::size_t pod_spines = topology.spine_vertices(static_cast<int>(p)).size();
    pod.spines = static_cast<std::size_t>(derived_uplinks_per_leaf(spec));
    pod.leaves_per_block = static_cast<std::size_t>(leaves_per_block(spec));
    pod.ecmp = spec.fabric.routing == FabricRouting::Ecmp;
    pod.planes = static_cast<std::size_t>(switches_per_leaf(spec));
    pod.flows_per_nic = static_cast<std::uint32_t>(spec.fabric.flows_per_nic);
    if (pod.spines == 0)
      throw std::logic_error("FabricZone: pod " + topology.spec().pods[p].name + " has no spine");
    pod.leaf_spine.resize(topology.leaves_of_pod(static_cast<int>(p)).size() * pod.spines);
    pod.spine_storage.resize(pod_spines);
    if (!topology.core_vertices(static_cast<int>(p)).empty())
      pod.spine_core.resize(pod_spines);
  }
  nodes_.reserve(topology.node_count());
}

void FabricZone::add_node(const NetPoint* host, int pod, std::size_t leaf, std::size_t index, Cable to_leaf,
                          Cable to_storage)
{
  const auto id = static_cast<NodeId>(nodes_.size());
  Node node;
  node.pod = static_cast<std::uint32_t>(pod);
  node.leaf = static_cast<std::uint32_t>(leaf);
  node.block = static_cast<std::uint32_t>(leaf / pods_.at(static_cast<std::size_t>(pod)).leaves_per_block);
  node.index = static_cast<std::uint32_t>(index);
  node.to_leaf = to_leaf;
  node.to_storage = to_storage;
  nodes_.push_back(node);
  add_flow_host(host, id, 0);
}

void FabricZone::add_flow_host(const NetPoint* host, NodeId node, std::uint32_t flow)
{
  if (node >= nodes_.size())
    throw std::logic_error("FabricZone: a flow host of node " + std::to_string(node) + ", which was not added");
  if (host->id() >= endpoint_of_netpoint_.size())
    endpoint_of_netpoint_.resize(host->id() + 1);
  endpoint_of_netpoint_[host->id()] = Endpoint{static_cast<std::int32_t>(node), flow};
}

void FabricZone::set_leaf_spine(int pod, std::size_t leaf, std::size_t spine, Cable cable)
{
  Pod& p = pods_.at(static_cast<std::size_t>(pod));
  p.leaf_spine.at(leaf * p.spines + spine % p.spines) = cable;
}

void FabricZone::set_spine_core(int pod, std::size_t spine, Cable cable)
{
  pods_.at(static_cast<std::size_t>(pod)).spine_core.at(spine) = cable;
}

void FabricZone::set_spine_storage(int pod, std::size_t spine, Cable cable)
{
  pods_.at(static_cast<std::size_t>(pod)).spine_storage.at(spine) = cable;
}

void FabricZone::set_storage(const NetPoint* host, Cable service)
{
  storage_ = host;
  service_ = service;
}

FabricZone::Endpoint FabricZone::endpoint(const NetPoint* point) const
{
  return point->id() < endpoint_of_netpoint_.size() ? endpoint_of_netpoint_[point->id()] : Endpoint{};
}

std::size_t FabricZone::spine_toward(NodeId from, std::uint32_t to, std::uint32_t flow) const
{
  const Pod& pod = pods_[nodes_[from].pod];
  if (pod.ecmp) {
    const EcmpFlow hashed{ecmp_seed_, from, to, flow};
    if (to == ECMP_TO_STORAGE || pod.planes == 1)
      return ecmp_path(hashed, pod.spines);
    // The flow's NIC, hence its rail, hence the plane of spines its rail switch reaches.
    const std::size_t per_plane = pod.spines / pod.planes;
    const std::size_t plane = (flow / pod.flows_per_nic) % pod.planes;
    return plane * per_plane + ecmp_path(hashed, per_plane);
  }
  // D-mod-k: by the destination's index in the pod; toward storage, by the node's own.
  const Node& by = to == ECMP_TO_STORAGE ? nodes_[from] : nodes_[to];
  return by.index % pod.spines;
}

void FabricZone::node_to_storage(NodeId id, Route* into, double* latency) const
{
  const Node& node = nodes_[id];
  if (node.to_storage.up != nullptr) {
    up(into, latency, node.to_storage);
    return;
  }
  const std::size_t spine = spine_toward(id, ECMP_TO_STORAGE, 0);
  up(into, latency, node.to_leaf);
  up(into, latency, leaf_spine(node, spine));
  up(into, latency, pods_[node.pod].spine_storage[spine]);
}

void FabricZone::storage_to_node(NodeId id, Route* into, double* latency) const
{
  const Node& node = nodes_[id];
  if (node.to_storage.up != nullptr) {
    down(into, latency, node.to_storage);
    return;
  }
  const std::size_t spine = spine_toward(id, ECMP_TO_STORAGE, 0);
  down(into, latency, pods_[node.pod].spine_storage[spine]);
  down(into, latency, leaf_spine(node, spine));
  down(into, latency, node.to_leaf);
}

void FabricZone::get_local_route(const NetPoint* src, const NetPoint* dst, Route* into, double* latency)
{
  const Endpoint from = endpoint(src);
  const Endpoint to = endpoint(dst);
  // Routes through the storage service count its latency first (see the header).
  const auto through_service = [&] {
    if (latency != nullptr)
      *latency += service_.latency_s;
  };
  if (from.node != NOT_A_NODE && to.node != NOT_A_NODE && from.node != to.node) {
    const auto a_id = static_cast<NodeId>(from.node);
    const auto b_id = static_cast<NodeId>(to.node);
    const Node& a = nodes_[a_id];
    const Node& b = nodes_[b_id];
    if (a.pod != b.pod) {
      through_service();
      node_to_storage(a_id, into, latency);
      into->link_list_.push_back(service_.up);
      storage_to_node(b_id, into, latency);
      return;
    }
    up(into, latency, a.to_leaf);
    if (a.leaf != b.leaf) {
      const std::size_t spine = spine_toward(a_id, b_id, from.flow);
      up(into, latency, leaf_spine(a, spine));
      if (a.block != b.block) {
        up(into, latency, spine_core(a, spine));
        down(into, latency, spine_core(b, spine));
      }
      down(into, latency, leaf_spine(b, spine));
    }
    down(into, latency, b.to_leaf);
    return;
  }
  if (from.node != NOT_A_NODE && dst == storage_) {
    through_service();
    node_to_storage(static_cast<NodeId>(from.node), into, latency);
    into->link_list_.push_back(service_.up);
    return;
  }
  if (to.node != NOT_A_NODE && src == storage_) {
    through_service();
    into->link_list_.push_back(service_.down);
    storage_to_node(static_cast<NodeId>(to.node), into, latency);
    return;
  }
  throw std::logic_error("FabricZone " + get_name() + ": no route from " + src->get_name() + " to " + dst->get_name() +
                         " (routes join two nodes, or a node and the storage host)");
}

} // namespace acmesim
