#pragma once
// Free GPUs of every node over future time, as a scheduler plans it: what is free now, the GPUs
// running jobs give back at their estimated ends, and the GPUs reserved for queued jobs. Answers
// "when is the earliest time a job of this shape fits for this long, and on which nodes?" with
// the job's whole window checked, not only its start (conservative backfilling).
#include "sim/policies/WholeFreeStretches.hpp"
#include "sim/policy_api/ClusterState.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace acmesim {

class FreeGpuTimeline {
public:
  // From the free GPUs of `cluster` at `now`; nodes out of service have none, ever.
  FreeGpuTimeline(const ClusterState& cluster, double now);

  // A running job gives its GPUs back at `at` (+infinity: never).
  void release(const Allocation& allocation, double at);
  // GPUs held on the allocation's nodes over [from, until).
  void hold(const Allocation& allocation, double from, double until);
  // Moves the present to `now` (not earlier than the last): changes due by then take effect.
  void advance_to(double now);

  // Fewest free GPUs of `node` over [from, until).
  int min_free(NodeId node, double from, double until) const;

  struct Slot {
    double start = 0;
    Allocation allocation;
  };
  // The earliest time, from now on, at which `gpus` (> 0) fit for `duration_s` in the job's shape
  // (one node, or whole nodes of one pod), and the nodes: for one node the tightest fit, for
  // whole nodes the lowest ids; ties go to the lower pod and node. nullopt: it never fits.
  std::optional<Slot> earliest(int gpus, double duration_s) const;
  // Whether earliest(gpus, duration_s) may be now: never false when it is (rarely true when it
  // is not), and cheap when few GPUs are free now.
  bool may_start_now(int gpus, double duration_s) const;

private:
  std::optional<Slot> earliest_in_node(int pod, int gpus, double duration_s) const;
  std::optional<Slot> earliest_whole_nodes(int pod, int nodes, double duration_s) const;
  // The earliest start on `node`, not after `latest`, at which `gpus` are free for `duration_s`,
  // and the fewest free GPUs in that window: one pass over the node's changes.
  std::optional<std::pair<double, int>> earliest_on_node(NodeId node, int gpus, double duration_s,
                                                         double latest) const;
  // When `node` stops being wholly free (now if it is not, +infinity if never).
  double wholly_free_until(NodeId node, int node_gpus) const;
  void add_change(NodeId node, double at, int change);
  const PodSpec& pod_spec(int pod) const;
  NodeId end_of_pod(int pod) const; // one past its last node

  // The stretches in which each pod's nodes are wholly free, brought up to date before a
  // question about whole nodes: only the nodes whose timeline changed since are worked out again.
  const WholeFreeStretches& whole_free(int pod) const;
  void changed(NodeId node);

  const Topology& topology_;
  double now_;
  std::vector<int> free_now_; // by node
  std::vector<bool> in_service_;
  // Per node, (time, change of free GPUs), by time and, at one time, gains before losses.
  std::vector<std::vector<std::pair<double, int>>> changes_;
  mutable std::vector<WholeFreeStretches> whole_free_; // by pod
  mutable std::vector<std::vector<NodeId>> stale_;     // by pod: nodes changed since
  mutable std::vector<bool> is_stale_;                 // by node
};

} // namespace acmesim
