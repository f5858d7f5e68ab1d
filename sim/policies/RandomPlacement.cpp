#include "sim/policies/Placements.hpp"

#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <utility>

namespace acmesim {

const Registration random_placement(
    placement_registry(),
    {"random", "uniformly random among nodes that fit (seeded stream placement.random)", {}},
    [](const PolicyParams&, std::uint64_t seed) {
      return std::make_unique<RandomPlacement>(make_stream(seed, "placement.random"));
    });

namespace {
std::size_t pick(RandomEngine& rng, std::size_t n)
{
  return std::min(n - 1, static_cast<std::size_t>(uniform01(rng) * static_cast<double>(n)));
}
} // namespace

Allocation RandomPlacement::place(const ClusterState& cluster, int gpus)
{
  const auto pods = feasible_pods(cluster, gpus);
  if (pods.empty())
    return {};
  const int pod = pods[pick(rng_, pods.size())];
  const int node_gpus = cluster.topology().spec().pods[pod].gpus_per_node;
  const JobShape shape = job_shape(gpus, node_gpus);

  std::vector<NodeId> candidates;
  for (int f = shape.gpus_per_node; f <= node_gpus; ++f) {
    const auto& bucket = cluster.nodes_by_free(pod, f);
    candidates.insert(candidates.end(), bucket.begin(), bucket.end());
  }
  // Partial Fisher-Yates: the first `nodes` entries become a uniform sample.
  for (int i = 0; i < shape.nodes; ++i) {
    const std::size_t j = static_cast<std::size_t>(i) + pick(rng_, candidates.size() - static_cast<std::size_t>(i));
    std::swap(candidates[static_cast<std::size_t>(i)], candidates[j]);
  }
  candidates.resize(static_cast<std::size_t>(shape.nodes));
  return make_allocation(std::move(candidates), shape.gpus_per_node);
}

} // namespace acmesim
