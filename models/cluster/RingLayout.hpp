#pragma once
// Which nodes a training job's ring joins over the compute fabric. NCCL runs a ring inside an
// NVLink domain over NVLink and leaves the domain over its nodes' NICs. Where NVLink stops at the
// node (DGX, HGX), the ring goes node to node, the last back to the first. Where a domain holds
// several nodes (a GB200 NVL72 rack of 18 trays), the job's nodes of one domain run parallel rings
// across the fabric, "lanes": lane t of each domain sends to lane t of the next, so a domain's
// traffic across the fabric spreads over its nodes' NICs, and a job within one domain puts nothing
// on a NIC. Engine-free.
#include "models/cluster/Topology.hpp"

#include <vector>

namespace acmesim {

struct RingHop {
  NodeId from = 0;
  NodeId to = 0;
  bool operator==(const RingHop&) const = default;
};

struct RingLayout {
  int domains = 0; // NVLink domains the job's nodes span
  // Parallel rings across the fabric: the job's nodes in each domain that carry its traffic (the
  // fewest it has in any domain; the others reach them over NVLink).
  int lanes = 1;
  std::vector<RingHop> hops; // empty: nothing crosses the fabric
};

// Where the nodes of each NVLink domain begin in `nodes` (ascending, distinct: a domain's nodes are
// consecutive), then nodes.size(): domain d holds nodes[bounds[d]] .. nodes[bounds[d + 1] - 1].
std::vector<std::size_t> domain_bounds(const Topology& topology, const std::vector<NodeId>& nodes);

// The ring of a job on `nodes` (ascending, distinct).
RingLayout ring_layout(const Topology& topology, const std::vector<NodeId>& nodes);
// The ring of nodes each in a domain of its own: node i to node i+1, the last to the first.
RingLayout node_ring(const std::vector<NodeId>& nodes);

} // namespace acmesim
