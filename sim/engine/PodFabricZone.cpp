#include "sim/engine/PodFabricZone.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Link.hpp>

#include <stdexcept>

namespace acmesim {

namespace {

void append(simgrid::kernel::routing::Route* route, double* latency, PodFabricZone::LinkImpl* link, double link_latency)
{
  route->link_list_.push_back(link);
  if (latency != nullptr)
    *latency += link_latency;
}

void up(simgrid::kernel::routing::Route* route, double* latency, const PodFabricZone::Cable& cable)
{
  append(route, latency, cable.up, cable.latency_s);
}

void down(simgrid::kernel::routing::Route* route, double* latency, const PodFabricZone::Cable& cable)
{
  append(route, latency, cable.down, cable.latency_s);
}

} // namespace

PodFabricZone::Cable PodFabricZone::cable_of(simgrid::s4u::Link* link)
{
  if (link->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::SPLITDUPLEX) {
    const auto* duplex = dynamic_cast<const simgrid::s4u::SplitDuplexLink*>(link);
    if (duplex == nullptr)
      throw std::logic_error("PodFabricZone: " + link->get_name() + " is split-duplex but not a SplitDuplexLink");
    return {duplex->get_link_up()->get_impl(), duplex->get_link_down()->get_impl(), duplex->get_link_up()->get_latency()};
  }
  return {link->get_impl(), link->get_impl(), link->get_latency()};
}

PodFabricZone::PodFabricZone(const std::string& name, std::size_t leaves, std::size_t spines)
    : NetZoneImpl(name), spines_(spines), leaf_spine_(leaves * spines), spine_storage_(spines)
{
  if (spines == 0)
    throw std::logic_error("PodFabricZone " + name + ": a pod needs at least one spine");
}

void PodFabricZone::add_node(const NetPoint* host, std::size_t leaf, Cable to_leaf, const Cable* to_storage)
{
  if (host->id() >= node_of_netpoint_.size())
    node_of_netpoint_.resize(host->id() + 1, NOT_A_NODE);
  node_of_netpoint_[host->id()] = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back({static_cast<std::uint32_t>(leaf), to_leaf, to_storage != nullptr ? *to_storage : Cable{}});
}

void PodFabricZone::set_leaf_spine(std::size_t leaf, std::size_t spine, Cable cable)
{
  leaf_spine_.at(leaf * spines_ + spine) = cable;
}

void PodFabricZone::set_spine_storage(std::size_t spine, Cable cable) { spine_storage_.at(spine) = cable; }

void PodFabricZone::set_storage_gateway(const NetPoint* gateway) { storage_gateway_ = gateway; }

std::int32_t PodFabricZone::node_index(const NetPoint* point) const
{
  return point->id() < node_of_netpoint_.size() ? node_of_netpoint_[point->id()] : NOT_A_NODE;
}

void PodFabricZone::get_local_route(const NetPoint* src, const NetPoint* dst, simgrid::kernel::routing::Route* into,
                                    double* latency)
{
  const std::int32_t from = node_index(src);
  const std::int32_t to = node_index(dst);
  if (from != NOT_A_NODE && to != NOT_A_NODE && from != to) {
    const Node& a = nodes_[static_cast<std::size_t>(from)];
    const Node& b = nodes_[static_cast<std::size_t>(to)];
    up(into, latency, a.to_leaf);
    if (a.leaf != b.leaf) {
      const std::size_t spine = spine_toward(static_cast<std::size_t>(to));
      up(into, latency, leaf_spine(a.leaf, spine));
      down(into, latency, leaf_spine(b.leaf, spine));
    }
    down(into, latency, b.to_leaf);
    return;
  }
  const bool to_storage = from != NOT_A_NODE && dst == storage_gateway_;
  const bool from_storage = to != NOT_A_NODE && src == storage_gateway_;
  if (!to_storage && !from_storage)
    throw std::logic_error("PodFabricZone " + get_name() + ": no route from " + src->get_name() + " to " +
                           dst->get_name() + " (routes join two nodes, or a node and the storage gateway)");
  const std::size_t index = static_cast<std::size_t>(to_storage ? from : to);
  const Node& node = nodes_[index];
  if (node.to_storage.up != nullptr) {
    to_storage ? up(into, latency, node.to_storage) : down(into, latency, node.to_storage);
    return;
  }
  const std::size_t spine = spine_toward(index);
  if (to_storage) {
    up(into, latency, node.to_leaf);
    up(into, latency, leaf_spine(node.leaf, spine));
    up(into, latency, spine_storage_[spine]);
  } else {
    down(into, latency, spine_storage_[spine]);
    down(into, latency, leaf_spine(node.leaf, spine));
    down(into, latency, node.to_leaf);
  }
}

} // namespace acmesim
