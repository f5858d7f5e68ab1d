#include "sim/policies/Placements.hpp"

#include <algorithm>

namespace acmesim {

PodList feasible_pods(const ClusterState& cluster, int gpus)
{
  PodList pods;
  const auto& spec = cluster.topology().spec();
  for (int pod = 0; pod < static_cast<int>(spec.pods.size()); ++pod) {
    const int node_gpus = spec.pods[pod].gpus_per_node;
    const JobShape shape = job_shape(gpus, node_gpus);
    bool ok = false;
    if (shape.whole_nodes) {
      ok = cluster.nodes_with_free(pod, node_gpus) >= shape.nodes;
    } else {
      for (int f = gpus; f <= node_gpus && !ok; ++f)
        ok = cluster.nodes_with_free(pod, f) > 0;
    }
    if (ok)
      pods.push_back(pod);
  }
  return pods;
}

std::vector<NodeId> wholly_free_nodes(const ClusterState& cluster, LeafId leaf)
{
  std::vector<NodeId> nodes;
  for (NodeId node : cluster.topology().nodes_of_leaf(leaf))
    if (cluster.free_gpus(node) == cluster.topology().gpus_of(node))
      nodes.push_back(node);
  return nodes;
}

Allocation make_allocation(std::vector<NodeId> nodes, int gpus_each)
{
  std::sort(nodes.begin(), nodes.end());
  Allocation allocation;
  allocation.parts.reserve(nodes.size());
  for (NodeId node : nodes)
    allocation.parts.push_back({node, gpus_each});
  return allocation;
}

} // namespace acmesim
