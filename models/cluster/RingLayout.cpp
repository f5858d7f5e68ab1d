#include "models/cluster/RingLayout.hpp"

#include <algorithm>

namespace acmesim {

namespace {

// Where each run of `nodes` of one domain (as `domain_of` says) begins, then nodes.size().
template <typename DomainOf> std::vector<std::size_t> bounds_of(const std::vector<NodeId>& nodes, DomainOf domain_of)
{
  std::vector<std::size_t> bounds;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (i == 0 || domain_of(nodes[i]) != domain_of(nodes[i - 1]))
      bounds.push_back(i);
  bounds.push_back(nodes.size());
  return bounds;
}

// Lane t of each domain to lane t of the next.
RingLayout layout_of(const std::vector<NodeId>& nodes, const std::vector<std::size_t>& bounds)
{
  RingLayout layout;
  const std::size_t domains = bounds.size() - 1;
  layout.domains = static_cast<int>(domains);
  if (domains < 2)
    return layout; // within one domain: NVLink only
  std::size_t lanes = nodes.size();
  for (std::size_t d = 0; d < domains; ++d)
    lanes = std::min(lanes, bounds[d + 1] - bounds[d]);
  layout.lanes = static_cast<int>(lanes);
  layout.hops.reserve(domains * lanes);
  for (std::size_t d = 0; d < domains; ++d)
    for (std::size_t t = 0; t < lanes; ++t)
      layout.hops.push_back({nodes[bounds[d] + t], nodes[bounds[(d + 1) % domains] + t]});
  return layout;
}

} // namespace

std::vector<std::size_t> domain_bounds(const Topology& topology, const std::vector<NodeId>& nodes)
{
  return bounds_of(nodes, [&topology](NodeId node) { return topology.nvlink_domain_of(node); });
}

RingLayout ring_layout(const Topology& topology, const std::vector<NodeId>& nodes)
{
  return layout_of(nodes, domain_bounds(topology, nodes));
}

RingLayout node_ring(const std::vector<NodeId>& nodes)
{
  return layout_of(nodes, bounds_of(nodes, [](NodeId node) { return node; }));
}

} // namespace acmesim
