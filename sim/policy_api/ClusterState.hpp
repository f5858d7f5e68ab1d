#pragma once
// Free GPUs of every node, indexed so that schedulers and placement policies answer "does it
// fit?" and "where?" without scanning the cluster: per pod, a count of nodes by number of free
// GPUs and the set of such nodes; per leaf switch, the number of wholly free nodes.
// Plain C++: the simulation layer owns one and applies decisions to it; schedulers copy the
// light CapacityProfile part to ask what-if questions (reservations).
#include "models/cluster/Topology.hpp"
#include "sim/policy_api/JobShape.hpp"
#include "sim/policy_api/NodeSet.hpp"

#include <vector>

namespace acmesim {

// Free GPUs per node plus, per pod, how many nodes have each number of free GPUs: enough to
// decide feasibility in O(pods x gpus_per_node) and cheap to copy.
// A node out of service (failed, under repair, cordoned or a held-back spare) has no free GPUs;
// GPUs jobs still hold on it are given back without becoming free.
class CapacityProfile {
public:
  explicit CapacityProfile(const Topology& topology);

  std::size_t node_count() const { return free_.size(); }
  int free_gpus(NodeId node) const { return free_[node]; }
  int free_gpus_total() const { return free_total_; }
  // Nodes of `pod` with exactly `gpus` free GPUs.
  int nodes_with_free(int pod, int gpus) const { return histogram_[pod][gpus]; }
  bool fits(int gpus) const; // could a job asking for `gpus` (> 0) start somewhere now?
  void take(const Allocation& allocation);
  void give_back(const Allocation& allocation);
  bool in_service(NodeId node) const { return in_service_[node]; }
  int held_gpus(NodeId node) const { return held_[node]; }
  void set_in_service(NodeId node, bool in_service);

protected:
  virtual void on_change(NodeId node, int old_free, int new_free);

  const Topology* topology_;
  std::vector<int> free_;
  std::vector<int> held_;          // GPUs allocated to jobs, in service or not
  std::vector<bool> in_service_;
  std::vector<std::vector<int>> histogram_; // [pod][free gpus] -> node count
  int free_total_ = 0;

public:
  virtual ~CapacityProfile() = default;
  CapacityProfile(const CapacityProfile&) = default;
  CapacityProfile& operator=(const CapacityProfile&) = default;
};

// The live cluster state, with the indexes placement policies need.
class ClusterState : public CapacityProfile {
public:
  explicit ClusterState(const Topology& topology);

  const Topology& topology() const { return *topology_; }
  // Nodes of `pod` with exactly `gpus` free GPUs, by ascending id.
  const NodeSet& nodes_by_free(int pod, int gpus) const { return by_free_[pod][gpus]; }
  int wholly_free_nodes_of_leaf(LeafId leaf) const { return leaf_free_nodes_[leaf]; }
  int gpus_in_use() const { return topology_->total_gpus() - free_gpus_total(); }

  // Copy of the capacity part only (for what-if questions).
  CapacityProfile capacity() const { return CapacityProfile(*this); }

private:
  void on_change(NodeId node, int old_free, int new_free) override;

  std::vector<std::vector<NodeSet>> by_free_; // [pod][free gpus]
  std::vector<int> leaf_free_nodes_;
};

} // namespace acmesim
