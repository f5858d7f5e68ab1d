#include "sim/policies/Placements.hpp"

#include <algorithm>

namespace acmesim {

bool fits_in_pod(const ClusterState& cluster, int pod, int gpus)
{
  const int node_gpus = cluster.topology().spec().pods[static_cast<std::size_t>(pod)].gpus_per_node;
  const JobShape shape = job_shape(gpus, node_gpus);
  if (shape.whole_nodes)
    return cluster.nodes_with_free(pod, node_gpus) >= shape.nodes;
  for (int f = gpus; f <= node_gpus; ++f)
    if (cluster.nodes_with_free(pod, f) > 0)
      return true;
  return false;
}

std::vector<int> feasible_pods(const ClusterState& cluster, int gpus)
{
  std::vector<int> pods;
  for (int pod = 0; pod < static_cast<int>(cluster.topology().spec().pods.size()); ++pod)
    if (fits_in_pod(cluster, pod, gpus))
      pods.push_back(pod);
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
