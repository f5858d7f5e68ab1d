#include "sim/engine/FabricZone.hpp"

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

FabricZone::FabricZone(const std::string& name, const Topology& topology) : NetZoneImpl(name)
{
  pods_.resize(topology.pod_count());
  for (std::size_t p = 0; p < pods_.size(); ++p) {
    Pod& pod = pods_[p];
    pod.spines = topology.spine_vertices(static_cast<int>(p)).size();
    if (pod.spines == 0)
      throw std::logic_error("FabricZone: pod " + topology.spec().pods[p].name + " has no spine");
    pod.leaf_spine.resize(topology.leaves_of_pod(static_cast<int>(p)).size() * pod.spines);
    pod.spine_storage.resize(pod.spines);
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
  node.index = static_cast<std::uint32_t>(index);
  node.to_leaf = to_leaf;
  node.to_storage = to_storage;
  nodes_.push_back(node);
  if (host->id() >= node_of_netpoint_.size())
    node_of_netpoint_.resize(host->id() + 1, NOT_A_NODE);
  node_of_netpoint_[host->id()] = static_cast<std::int32_t>(id);
}

void FabricZone::set_leaf_spine(int pod, std::size_t leaf, std::size_t spine, Cable cable)
{
  Pod& p = pods_.at(static_cast<std::size_t>(pod));
  p.leaf_spine.at(leaf * p.spines + spine) = cable;
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

std::int32_t FabricZone::node_index(const NetPoint* point) const
{
  return point->id() < node_of_netpoint_.size() ? node_of_netpoint_[point->id()] : NOT_A_NODE;
}

void FabricZone::node_to_storage(const Node& node, Route* into, double* latency) const
{
  if (node.to_storage.up != nullptr) {
    up(into, latency, node.to_storage);
    return;
  }
  const std::size_t spine = spine_toward(node);
  up(into, latency, node.to_leaf);
  up(into, latency, leaf_spine(node, spine));
  up(into, latency, pods_[node.pod].spine_storage[spine]);
}

void FabricZone::storage_to_node(const Node& node, Route* into, double* latency) const
{
  if (node.to_storage.up != nullptr) {
    down(into, latency, node.to_storage);
    return;
  }
  const std::size_t spine = spine_toward(node);
  down(into, latency, pods_[node.pod].spine_storage[spine]);
  down(into, latency, leaf_spine(node, spine));
  down(into, latency, node.to_leaf);
}

void FabricZone::get_local_route(const NetPoint* src, const NetPoint* dst, Route* into, double* latency)
{
  const std::int32_t from = node_index(src);
  const std::int32_t to = node_index(dst);
  // Routes through the storage service count its latency first (see the header).
  const auto through_service = [&] {
    if (latency != nullptr)
      *latency += service_.latency_s;
  };
  if (from != NOT_A_NODE && to != NOT_A_NODE && from != to) {
    const Node& a = nodes_[static_cast<std::size_t>(from)];
    const Node& b = nodes_[static_cast<std::size_t>(to)];
    if (a.pod != b.pod) {
      through_service();
      node_to_storage(a, into, latency);
      into->link_list_.push_back(service_.up);
      storage_to_node(b, into, latency);
      return;
    }
    up(into, latency, a.to_leaf);
    if (a.leaf != b.leaf) {
      const std::size_t spine = spine_toward(b);
      up(into, latency, leaf_spine(a, spine));
      down(into, latency, leaf_spine(b, spine));
    }
    down(into, latency, b.to_leaf);
    return;
  }
  if (from != NOT_A_NODE && dst == storage_) {
    through_service();
    node_to_storage(nodes_[static_cast<std::size_t>(from)], into, latency);
    into->link_list_.push_back(service_.up);
    return;
  }
  if (to != NOT_A_NODE && src == storage_) {
    through_service();
    into->link_list_.push_back(service_.down);
    storage_to_node(nodes_[static_cast<std::size_t>(to)], into, latency);
    return;
  }
  throw std::logic_error("FabricZone " + get_name() + ": no route from " + src->get_name() + " to " + dst->get_name() +
                         " (routes join two nodes, or a node and the storage host)");
}

} // namespace acmesim
