#include "sim/policies/Placements.hpp"

#include "sim/policies/Registries.hpp"

#include <algorithm>

namespace acmesim {

const Registration spread_placement(
    placement_registry(),
    {"spread", "spread whole-node jobs over as many leaf switches as possible; emptiest node for small jobs", {}},
    [](const PolicyParams&, std::uint64_t) { return std::make_unique<SpreadPlacement>(); });

Allocation SpreadPlacement::place(const ClusterState& cluster, int gpus)
{
  const auto& spec = cluster.topology().spec();
  const auto pods = feasible_pods(cluster, gpus);
  if (pods.empty())
    return {};

  // Pods whose nodes are big enough to hold the job on one node come first; whole-node
  // placement is only for pods where it needs several nodes (pods may differ in node size).
  std::vector<int> single_node_pods;
  for (int pod : pods)
    if (!job_shape(gpus, spec.pods[pod].gpus_per_node).whole_nodes)
      single_node_pods.push_back(pod);
  if (!single_node_pods.empty()) {
    // Worst fit: the emptiest node over those pods, lowest id among equals.
    int best_free = -1;
    NodeId best_node = 0;
    for (int pod : single_node_pods) {
      const int node_gpus = spec.pods[pod].gpus_per_node;
      for (int f = node_gpus; f >= gpus; --f) {
        const auto& bucket = cluster.nodes_by_free(pod, f);
        if (bucket.empty())
          continue;
        if (f > best_free || (f == best_free && *bucket.begin() < best_node)) {
          best_free = f;
          best_node = *bucket.begin();
        }
        break;
      }
    }
    return make_allocation({best_node}, gpus);
  }

  // The pod with the most wholly free nodes, then one node per leaf in turn.
  int pod = pods.front();
  for (int p : pods)
    if (cluster.nodes_with_free(p, spec.pods[p].gpus_per_node) >
        cluster.nodes_with_free(pod, spec.pods[pod].gpus_per_node))
      pod = p;
  const int node_gpus = spec.pods[pod].gpus_per_node;
  const JobShape shape = job_shape(gpus, node_gpus);

  std::vector<std::vector<NodeId>> per_leaf;
  for (LeafId leaf : cluster.topology().leaves_of_pod(pod)) {
    auto nodes = wholly_free_nodes(cluster, leaf);
    if (!nodes.empty())
      per_leaf.push_back(std::move(nodes));
  }
  std::stable_sort(per_leaf.begin(), per_leaf.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::vector<NodeId> chosen;
  for (std::size_t round = 0; static_cast<int>(chosen.size()) < shape.nodes; ++round)
    for (const auto& nodes : per_leaf)
      if (round < nodes.size() && static_cast<int>(chosen.size()) < shape.nodes)
        chosen.push_back(nodes[round]);
  return make_allocation(std::move(chosen), node_gpus);
}

} // namespace acmesim
