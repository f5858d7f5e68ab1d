#include "sim/policies/Placements.hpp"

#include "models/cluster/RingLayout.hpp"
#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <limits>

namespace acmesim {

const Registration pack_placement(
    placement_registry(),
    {"pack", "fewest leaf switches, then fewest NVLink domains; best-fit node for jobs within one node", {}},
    [](const PolicyParams&, std::uint64_t) { return std::make_unique<PackPlacement>(); });

namespace {

// Free nodes (ascending) in the order a packed job takes `count` of them. Where NVLink spans several
// nodes, the job should span as few domains as it can: first the domain that holds it alone with
// the fewest free nodes, else the domains with the most free nodes first. One node a domain: as given.
std::vector<NodeId> by_nvlink_domain(const Topology& topo, std::vector<NodeId> nodes, int count)
{
  if (nodes.empty() || topo.spec().pods[static_cast<std::size_t>(topo.pod_of(nodes.front()))].nvlink_domain_nodes == 1)
    return nodes;
  struct Run {
    std::size_t begin = 0, end = 0;
    std::size_t size() const { return end - begin; }
  };
  const std::vector<std::size_t> bounds = domain_bounds(topo, nodes);
  std::vector<Run> runs;
  for (std::size_t d = 0; d + 1 < bounds.size(); ++d)
    runs.push_back({bounds[d], bounds[d + 1]});
  const auto wanted = static_cast<std::size_t>(count);
  const auto best = std::min_element(runs.begin(), runs.end(), [wanted](const Run& a, const Run& b) {
    const bool a_holds = a.size() >= wanted, b_holds = b.size() >= wanted;
    return a_holds != b_holds ? a_holds : a_holds && a.size() < b.size();
  });
  if (best->size() >= wanted)
    std::rotate(runs.begin(), best, best + 1);
  else
    std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.size() > b.size(); });
  std::vector<NodeId> ordered;
  ordered.reserve(nodes.size());
  for (const Run& run : runs)
    ordered.insert(ordered.end(), nodes.begin() + static_cast<std::ptrdiff_t>(run.begin),
                   nodes.begin() + static_cast<std::ptrdiff_t>(run.end));
  return ordered;
}

// Whole nodes from as few leaves as possible: the best-fitting single leaf if one suffices,
// otherwise the fullest leaves first. Returns the chosen nodes (empty if the pod lacks them).
std::vector<NodeId> pack_whole_nodes(const ClusterState& cluster, int pod, int count, int& leaves_used)
{
  const auto& topo = cluster.topology();
  std::vector<LeafId> leaves;
  for (LeafId leaf : topo.leaves_of_pod(pod))
    if (cluster.wholly_free_nodes_of_leaf(leaf) > 0)
      leaves.push_back(leaf);

  LeafId best_single = 0;
  int best_single_free = std::numeric_limits<int>::max();
  for (LeafId leaf : leaves) {
    const int free_nodes = cluster.wholly_free_nodes_of_leaf(leaf);
    if (free_nodes >= count && free_nodes < best_single_free) {
      best_single = leaf;
      best_single_free = free_nodes;
    }
  }
  std::vector<NodeId> chosen;
  if (best_single_free != std::numeric_limits<int>::max()) {
    auto nodes = by_nvlink_domain(topo, wholly_free_nodes(cluster, best_single), count);
    chosen.assign(nodes.begin(), nodes.begin() + count);
    leaves_used = 1;
    return chosen;
  }
  std::stable_sort(leaves.begin(), leaves.end(), [&](LeafId a, LeafId b) {
    return cluster.wholly_free_nodes_of_leaf(a) > cluster.wholly_free_nodes_of_leaf(b);
  });
  leaves_used = 0;
  for (LeafId leaf : leaves) {
    for (NodeId node : by_nvlink_domain(topo, wholly_free_nodes(cluster, leaf), count - static_cast<int>(chosen.size()))) {
      chosen.push_back(node);
      if (static_cast<int>(chosen.size()) == count)
        break;
    }
    ++leaves_used;
    if (static_cast<int>(chosen.size()) == count)
      return chosen;
  }
  return {};
}

} // namespace

Allocation PackPlacement::place(const ClusterState& cluster, int gpus)
{
  const auto& spec = cluster.topology().spec();
  // Single-node candidates (best fit over all pods where one node holds the job) win over
  // whole-node ones; pods may differ in node size, so the shape is worked out per pod.
  NodeId best_node = 0;
  int best_fit_free = std::numeric_limits<int>::max();
  std::vector<NodeId> best_whole;
  int best_whole_gpus = 0;
  int best_leaves = std::numeric_limits<int>::max();

  // Pod by pod rather than from feasible_pods: placement runs for every job, and the list would
  // be an allocation each time.
  for (int pod = 0; pod < static_cast<int>(spec.pods.size()); ++pod) {
    if (!fits_in_pod(cluster, pod, gpus))
      continue;
    const int node_gpus = spec.pods[pod].gpus_per_node;
    const JobShape shape = job_shape(gpus, node_gpus);
    if (!shape.whole_nodes) {
      // Best fit: the node with the fewest free GPUs that still hold the job.
      for (int f = gpus; f <= node_gpus && f < best_fit_free; ++f) {
        const auto& bucket = cluster.nodes_by_free(pod, f);
        if (!bucket.empty()) {
          best_fit_free = f;
          best_node = *bucket.begin();
          break;
        }
      }
      continue;
    }
    int leaves_used = 0;
    auto nodes = pack_whole_nodes(cluster, pod, shape.nodes, leaves_used);
    if (!nodes.empty() && leaves_used < best_leaves) {
      best_leaves = leaves_used;
      best_whole = std::move(nodes);
      best_whole_gpus = node_gpus;
    }
  }
  if (best_fit_free != std::numeric_limits<int>::max())
    return Allocation{{{best_node, gpus}}};
  if (best_whole.empty())
    return {};
  return make_allocation(std::move(best_whole), best_whole_gpus);
}

} // namespace acmesim
