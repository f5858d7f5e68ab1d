#pragma once
// The placement policies named in the catalogue: pack, spread, random.
#include "models/common/Random.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

namespace acmesim {

// Fewest leaf switches, then fewest NVLink domains (PodSpec::nvlink_domain_nodes), then fewest
// nodes. Jobs within one node go to the best-fitting node (fewest free GPUs that still fit, lowest
// id), keeping whole nodes free for large jobs.
class PackPlacement final : public PlacementPolicy {
public:
  Allocation place(const ClusterState& cluster, int gpus) override;
};

// Whole-node jobs take one node per leaf switch in turn, from the leaves with most free
// nodes; jobs within one node go to the emptiest node (lowest id among equals).
class SpreadPlacement final : public PlacementPolicy {
public:
  Allocation place(const ClusterState& cluster, int gpus) override;
};

// Uniformly random among the nodes (of a uniformly random feasible pod) that fit.
class RandomPlacement final : public PlacementPolicy {
public:
  explicit RandomPlacement(RandomEngine rng) : rng_(rng) {}
  Allocation place(const ClusterState& cluster, int gpus) override;

private:
  RandomEngine rng_;
};

// Whether a job of `gpus` fits in `pod` now.
bool fits_in_pod(const ClusterState& cluster, int pod, int gpus);
// Pods where a job of `gpus` fits now, ascending.
std::vector<int> feasible_pods(const ClusterState& cluster, int gpus);
// Wholly free nodes of a leaf, ascending.
std::vector<NodeId> wholly_free_nodes(const ClusterState& cluster, LeafId leaf);
// Allocation of `gpus_each` GPUs on each of `nodes` (sorted).
Allocation make_allocation(std::vector<NodeId> nodes, int gpus_each);

} // namespace acmesim
