#pragma once
// The routing of the whole cluster: one SimGrid zone that works each route out when SimGrid asks
// for it, from tables of the cables, instead of holding a route per node pair.
//
// SimGrid's FullZone keeps a table of every pair, which grows with the square of the nodes: 2,048
// nodes took 650 MB and 8,192 would not fit. Its FatTreeZone routes without a table but cannot
// say what a pod here is: a last leaf with fewer nodes than the others, dedicated storage NICs
// that give a node a second way out, a leaf's spine cables pooled into one link, and the spine
// chosen by destination. And a zone per pod under a root zone, as the platform had, makes SimGrid
// walk the zone tree twice for every storage flow (the route and, for cross traffic, the route
// back): route lookups took a quarter of a run with checkpoints, 14% in one flat zone. This zone
// keeps the routes the platform had (the same links in the same order, the same latencies added
// in the same order, hence the same results) in memory linear in the nodes, at the cost of a few
// array reads per lookup.
//
// Routes:
// - node to node under one leaf: the two nodes' cables;
// - node to node across leaves of a pod: the source's cable, its leaf's cable to the spine chosen
//   by the destination (its index in the pod modulo the spine count, as InfiniBand D-mod-k routing
//   does), that spine's cable down to the destination's leaf, the destination's cable;
// - across blocks of a three-tier pod: the same with the spine's index k chosen as above among a
//   block's spines, and between the two spines k their cables to and from core plane k;
// - node to storage: the node's storage cable, or, without storage NICs, its compute cable, its
//   leaf's cable to the spine chosen by the node itself and that spine's storage cable; then the
//   storage service link. Storage to a node is that route backwards;
// - under ecmp routing (FabricSpec::routing) the spine is the one the flow hashes to
//   (models/cluster/EcmpHash): a node has an endpoint per flow it opens toward a peer (its own
//   host for the first, a flow host for each other), and an endpoint's routes are its node's with
//   the flow's own spine. Under rail wiring a flow leaves on its NIC's rail, so it hashes onto the
//   spines of that rail's plane;
// - node to a node of another pod: pods share no fabric, so up the first node's storage path,
//   through the storage service, down the other's, as data staged through storage would go.
// Latencies add up with the storage service's first, as SimGrid adds them over the zone tree.
#include "models/cluster/Topology.hpp"

#include <simgrid/kernel/routing/NetZoneImpl.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Link;
}

namespace acmesim {

class FabricZone final : public simgrid::kernel::routing::NetZoneImpl {
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

  // Sized for the topology's pods, leaves and spines, routed as each pod's fabric says (nothing of
  // the topology is kept); `ecmp_seed` seeds the hash of pods routed by ecmp.
  FabricZone(const std::string& name, const Topology& topology, std::uint64_t ecmp_seed);

  // Before seal(): every node in NodeId order (the topology's; its pod, its leaf and index within
  // the pod say where it is; a default Cable to_storage: no storage NIC), the switch cables, the
  // storage host and service.
  void add_node(const NetPoint* host, int pod, std::size_t leaf, std::size_t index, Cable to_leaf,
                Cable to_storage);
  // Another endpoint of an added node: its flow number `flow` (from 1) toward any peer.
  void add_flow_host(const NetPoint* host, NodeId node, std::uint32_t flow);
  // `spine` by its index in the pod (FabricSpec: spine j is spine j mod U of block j / U).
  void set_leaf_spine(int pod, std::size_t leaf, std::size_t spine, Cable cable);
  void set_spine_core(int pod, std::size_t spine, Cable cable);
  void set_spine_storage(int pod, std::size_t spine, Cable cable);
  void set_storage(const NetPoint* host, Cable service);

private:
  struct Node {
    std::uint32_t pod = 0;
    std::uint32_t leaf = 0;  // within the pod
    std::uint32_t block = 0; // within the pod
    std::uint32_t index = 0; // within the pod
    Cable to_leaf;
    Cable to_storage; // up == nullptr: no storage NIC
  };
  struct Pod {
    std::size_t spines = 0; // of a block
    std::size_t leaves_per_block = 1;
    bool ecmp = false;
    // Under rail wiring, a plane of spines per rail, and which rail a node's flow leaves on.
    std::size_t planes = 1;
    std::uint32_t flows_per_nic = 1;
    std::vector<Cable> leaf_spine;    // [leaf * spines + spine of the leaf's block]
    std::vector<Cable> spine_storage; // [spine of the pod], pods without storage NICs
    std::vector<Cable> spine_core;    // [spine of the pod], three-tier pods
  };
  using Route = simgrid::kernel::routing::Route;
  static constexpr std::int32_t NOT_A_NODE = -1;
  // A netpoint of a node: the node and which of its flows toward a peer it sends.
  struct Endpoint {
    std::int32_t node = NOT_A_NODE;
    std::uint32_t flow = 0;
  };

  void get_local_route(const NetPoint* src, const NetPoint* dst, Route* into, double* latency) override;
  Endpoint endpoint(const NetPoint* point) const;
  void node_to_storage(NodeId id, Route* into, double* latency) const;
  void storage_to_node(NodeId id, Route* into, double* latency) const;
  const Cable& leaf_spine(const Node& node, std::size_t spine) const
  {
    const Pod& pod = pods_[node.pod];
    return pod.leaf_spine[node.leaf * pod.spines + spine];
  }
  const Cable& spine_core(const Node& node, std::size_t spine) const
  {
    const Pod& pod = pods_[node.pod];
    return pod.spine_core[node.block * pod.spines + spine];
  }
  // The spine of a block from `from` toward `to` (a node, or ECMP_TO_STORAGE) for the flow `flow`.
  std::size_t spine_toward(NodeId from, std::uint32_t to, std::uint32_t flow) const;

  std::vector<Pod> pods_;
  std::vector<Node> nodes_;                   // by NodeId
  std::vector<Endpoint> endpoint_of_netpoint_; // by the netpoint's id in this zone
  std::uint64_t ecmp_seed_ = 0;
  const NetPoint* storage_ = nullptr;
  Cable service_;
};

} // namespace acmesim
