#include "models/cluster/RingLayout.hpp"

#include <algorithm>
#include <functional>

namespace acmesim {

namespace {

// Groups `nodes` (ascending) by `domain_of`, whose domains are runs of consecutive nodes, and
// links lane t of each group to lane t of the next.
RingLayout layout_of(const std::vector<NodeId>& nodes, const std::function<std::uint32_t(NodeId)>& domain_of)
{
  std::vector<std::vector<NodeId>> groups;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i == 0 || domain_of(nodes[i]) != domain_of(nodes[i - 1]))
      groups.emplace_back();
    groups.back().push_back(nodes[i]);
  }
  RingLayout layout;
  layout.domains = static_cast<int>(groups.size());
  if (groups.size() < 2)
    return layout; // within one domain: NVLink only
  std::size_t lanes = groups.front().size();
  for (const auto& group : groups)
    lanes = std::min(lanes, group.size());
  layout.lanes = static_cast<int>(lanes);
  layout.hops.reserve(groups.size() * lanes);
  for (std::size_t d = 0; d < groups.size(); ++d)
    for (std::size_t t = 0; t < lanes; ++t)
      layout.hops.push_back({groups[d][t], groups[(d + 1) % groups.size()][t]});
  return layout;
}

} // namespace

RingLayout ring_layout(const Topology& topology, const std::vector<NodeId>& nodes)
{
  return layout_of(nodes, [&topology](NodeId node) { return topology.nvlink_domain_of(node); });
}

RingLayout node_ring(const std::vector<NodeId>& nodes)
{
  return layout_of(nodes, [](NodeId node) { return node; });
}

} // namespace acmesim
