#pragma once
// The routing of one pod: a SimGrid zone that works each route out when SimGrid asks for it,
// from tables of the pod's cables, instead of holding a route per node pair.
//
// SimGrid's FullZone keeps a table of every pair, which grows with the square of the nodes: 2,048
// nodes took 650 MB and 8,192 would not fit. Its FatTreeZone routes without a table but cannot
// say what a pod here is: a last leaf with fewer nodes than the others, dedicated storage NICs
// that give a node a second way out, a leaf's spine cables pooled into one link, and the spine
// chosen by destination. This zone keeps the routes the pod had with explicit tables (the same
// links in the same order, hence the same latencies and the same results) in memory linear in
// the nodes, at the cost of a few array reads per lookup; SimGrid asks once per flow start, and
// LinkLoads remembers the routes it reads.
//
// Routes:
// - node to node under one leaf: the two nodes' cables;
// - node to node across leaves: the source's cable, its leaf's cable to the spine chosen by the
//   destination (its index in the pod modulo the spine count, as InfiniBand D-mod-k routing does),
//   that spine's cable down to the destination's leaf, the destination's cable;
// - node to the pod's storage gateway: the node's storage cable, or, without storage NICs, its
//   compute cable, its leaf's cable to the spine chosen by the node itself, and that spine's
//   storage cable; the gateway to a node is that route backwards.
#include <simgrid/kernel/routing/NetZoneImpl.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Link;
}

namespace acmesim {

class PodFabricZone final : public simgrid::kernel::routing::NetZoneImpl {
public:
  using LinkImpl = simgrid::kernel::resource::StandardLinkImpl;
  using NetPoint = simgrid::kernel::routing::NetPoint;

  // A cable as routes use it: what carries traffic going up (away from the node) and coming down.
  // The same link for both on a shared cable, the two directions of a split-duplex one.
  struct Cable {
    LinkImpl* up = nullptr;
    LinkImpl* down = nullptr;
    double latency_s = 0;
  };
  // A cable of either kind: split-duplex links route by direction, the others carry both.
  static Cable cable_of(simgrid::s4u::Link* link);

  PodFabricZone(const std::string& name, std::size_t leaves, std::size_t spines);

  // Before seal(): the pod's nodes in order of their index in the pod, then the switch cables.
  void add_node(const NetPoint* host, std::size_t leaf, Cable to_leaf, const Cable* to_storage);
  void set_leaf_spine(std::size_t leaf, std::size_t spine, Cable cable);
  void set_spine_storage(std::size_t spine, Cable cable);
  void set_storage_gateway(const NetPoint* gateway);

private:
  struct Node {
    std::uint32_t leaf = 0;
    Cable to_leaf;
    Cable to_storage; // up == nullptr: no storage NIC
  };
  static constexpr std::int32_t NOT_A_NODE = -1;

  void get_local_route(const NetPoint* src, const NetPoint* dst, simgrid::kernel::routing::Route* into,
                       double* latency) override;
  std::int32_t node_index(const NetPoint* point) const;
  std::size_t spine_toward(std::size_t node) const { return node % spines_; }
  const Cable& leaf_spine(std::size_t leaf, std::size_t spine) const { return leaf_spine_[leaf * spines_ + spine]; }

  std::size_t spines_;
  std::vector<Node> nodes_;                     // by index in the pod
  std::vector<std::int32_t> node_of_netpoint_;  // by the netpoint's id in this zone
  std::vector<Cable> leaf_spine_;               // [leaf * spines + spine]
  std::vector<Cable> spine_storage_;            // [spine], pods without storage NICs
  const NetPoint* storage_gateway_ = nullptr;
};

} // namespace acmesim
