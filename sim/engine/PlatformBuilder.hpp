#pragma once
// Builds the SimGrid platform from the Topology graph through the s4u API: one zone for the whole
// cluster (FabricZone), with a host per GPU node and one for the storage service, a router per leaf
// and spine switch and per core plane of a three-tier pod, and a link per cable.
//
// Routing. The zone works out minimal-hop routes from the cables when SimGrid asks: two cables
// within a leaf, four across the spines, with the spine chosen by destination (destination's index
// in its pod modulo the spine count, as InfiniBand D-mod-k routing does), so cross-leaf traffic
// spreads over every spine instead of piling onto one. SimGrid's Floyd/Dijkstra zones cannot do
// that: they send all traffic between two leaves through the same spine, and they would route
// node-to-node traffic through the storage NICs of a pod (2 cables, shorter than 4); its FullZone
// lists these routes but holds one per node pair (see FabricZone.hpp). A node reaches storage
// through its own storage cable, or, without storage NICs, through its leaf, the spine picked by
// its own index and that spine's storage cable, then the link "storage-service" (the aggregate
// bandwidth and latency of ClusterSpec::storage). Pods have no fabric between them: a route from a
// node of pod A to a node of pod B goes up A's storage path, through storage-service and down B's,
// as data staged through storage would.
//
// Under CableSharing::Duplex (the flows model) and pooled routing (FabricSpec::routing) a leaf's cables
// to the spines are pooled into one link, "<leaf>-uplinks", of their summed bandwidth: a node's
// traffic leaves through each of its NICs on a path of its own, so a node pair's flow spreads over
// several spines, which one SimGrid route per pair cannot say; pooling is the fluid form of that
// spreading and keeps the leaf's oversubscription (its uplink bandwidth against its nodes' cables).
// A three-tier pod's spine-to-core cables are pooled the same way, one link per block,
// "<pod>-block<b>-core".
// Traffic piling onto one spine cable is then not modelled. Under ecmp routing it is: the spine
// cables stay apart, and a node has an endpoint for each flow it opens toward a peer (one per
// compute NIC and flows_per_nic), each hashed onto its own spine: its own host for the first, a
// flow host "<node>-flow<j>" for each other. Flow hosts exist under Duplex only and share their
// node's cables; only the rings' routes use them (rings are not SimGrid flows), so a failure has
// nothing to turn off on them.
//
// Call once per process, after creating the s4u::Engine and before running it.
#include "models/cluster/Topology.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace simgrid::s4u {
class Host;
class Link;
} // namespace simgrid::s4u

namespace acmesim {

// How a cable carries its two directions. Shared: one capacity for both (the platform without the
// network model). Duplex: each direction its own capacity, as InfiniBand and Ethernet do (the flows
// model, where a ring sends and receives on every NIC at once).
enum class CableSharing : std::uint8_t { Shared, Duplex };

struct Platform {
  CableSharing sharing = CableSharing::Shared;
  std::vector<simgrid::s4u::Host*> node_hosts;     // indexed by NodeId
  // [NodeId]: the flow hosts of a node, flow 1 first (see above); empty when it has one flow a peer.
  std::vector<std::vector<simgrid::s4u::Host*>> flow_hosts;
  std::vector<simgrid::s4u::Link*> compute_cables; // indexed by NodeId: the node's compute NICs to its leaf
  simgrid::s4u::Host* storage_host = nullptr;
  simgrid::s4u::Link* storage_service_link = nullptr; // shared by every storage flow of every pod
  // What each direction of a fabric cable is, as schedulers see the links a ring crosses
  // (CommLink, sim/policy_api): the leaf it belongs to, whether it runs to the spines (or is a
  // node's cable), and whether it leaves the lower end. Split-duplex cables only (CableSharing::Duplex).
  struct LinkRole {
    LeafId leaf = 0;
    bool uplink = false;
    bool up = false;
    bool core = false; // a block's spines to the core tier (the leaf: the block's first)
  };
  std::unordered_map<const simgrid::s4u::Link*, LinkRole> link_roles;

  // Flows the node opens toward one peer, and the endpoint of the flow-th (from 0).
  std::size_t flows_of(NodeId node) const { return 1 + flow_hosts.at(node).size(); }
  simgrid::s4u::Host* flow_endpoint(NodeId node, std::size_t flow) const
  {
    return flow == 0 ? node_hosts.at(node) : flow_hosts.at(node).at(flow - 1);
  }
};

// `ecmp_seed` seeds the hash of the pods routed by ecmp (the scenario's seed, in runs).
Platform build_platform(const Topology& topology, CableSharing sharing = CableSharing::Shared,
                        std::uint64_t ecmp_seed = 0);

// The link of a leaf's pooled spine cables under CableSharing::Duplex.
std::string uplinks_name(const std::string& leaf);

} // namespace acmesim
