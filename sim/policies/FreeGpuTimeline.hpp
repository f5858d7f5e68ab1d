#pragma once
// Free GPUs of every node over future time, as a scheduler plans it: what is free now, the GPUs
// running jobs give back at their estimated ends, and the GPUs reserved for queued jobs. Answers
// "when is the earliest time a job of this shape fits for this long, and on which nodes?" with
// the job's whole window checked, not only its start (conservative backfilling). A question about
// the future is answered from indexes of the stretches in which nodes have some number of GPUs
// free, kept up to date node by node as reservations are made, not by reading every node.
#include "sim/policies/FreeStretchIndex.hpp"
#include "sim/policies/WholeFreeStretches.hpp"
#include "sim/policy_api/ClusterState.hpp"

#include <cmath>
#include <optional>
#include <set>
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
  // Undo a release or a hold made before, with the same arguments (whether or not the present
  // has passed its times since): a timeline kept from one plan to the next.
  void take_back(const Allocation& allocation, double at);
  void unhold(const Allocation& allocation, double from, double until);
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
  // Whether `node` alone has room for its part of such a job (all of `gpus` on one node, or the
  // whole node) for `duration_s` from some time in [now, before), read as if `ignored` (a hold on
  // it, if any) were not there: never false when it does (a microsecond is allowed for
  // rounding). Reads that node alone: its stretches at that level if kept, else its changes.
  struct HeldSpan {
    int gpus; // 0: none
    double from, until;
  };
  bool node_fits_before(NodeId node, int gpus, double duration_s, double before,
                        HeldSpan ignored = HeldSpan{0, 0, 0}) const;
  // The most nodes of `pod` wholly free together for `duration_s` from one time in [now, before):
  // fewer than a job of whole nodes needs if none fits before then. With `taken_off`, read as if
  // that hold from `before` on (of whole nodes) were not there.
  int most_wholly_free_before(int pod, double duration_s, double before, const Allocation* taken_off = nullptr) const;
  // Whether earliest(gpus, duration_s) may be now: never false when it is (rarely true when it
  // is not), and cheap when few GPUs are free now.
  bool may_start_now(int gpus, double duration_s) const;

private:
  std::optional<Slot> earliest_in_node(int pod, int gpus, double duration_s) const;
  std::optional<Slot> earliest_whole_nodes(int pod, int nodes, double duration_s) const;
  // When `node` stops being wholly free (now if it is not, +infinity if never).
  double wholly_free_until(NodeId node, int node_gpus) const;
  void add_change(NodeId node, double at, int change);
  void add_free_now(NodeId node, int change);
  void remove_change(NodeId node, double at, int change);
  // Makes `change` (add_change or remove_change) for each part: its GPUs taken at `from`, if
  // given, and given back at `until`.
  void for_parts(const Allocation& allocation, std::optional<double> from, double until,
                 void (FreeGpuTimeline::*change)(NodeId, double, int));
  // Whether a change on `node` at `at` is kept: GPUs given back on a node out of service do not
  // become free, and a release at +infinity never comes.
  bool kept(NodeId node, double at) const { return in_service_[node] && std::isfinite(at); }
  const PodSpec& pod_spec(int pod) const;
  NodeId end_of_pod(int pod) const; // one past its last node

  // A stretch of a node with at least `level` GPUs free: worked out for the levels asked about
  // (those with an index in at_least_), and always for the top one (wholly free).
  struct LevelStretch {
    int level;
    double from, to;
  };
  // `node`'s stretches from now on, by level and start, into `by_level`: at the levels kept, or
  // at `only_level` alone.
  void stretches_of(NodeId node, int node_gpus, std::vector<LevelStretch>& by_level, int only_level = 0) const;
  // Brings the pod's stretches up to date before a question: only the nodes whose timeline
  // changed since are worked out again, and only the stretches that changed are moved.
  void refresh(int pod) const;
  // The pod's stretches with at least `gpus` free, up to date.
  const FreeStretchIndex& at_least(int pod, int gpus) const;
  // The stretches in which each pod's nodes are wholly free (its top level), up to date.
  const WholeFreeStretches& whole_free(int pod) const;
  void changed(NodeId node) const;

  const Topology& topology_;
  double now_;
  std::vector<int> free_now_;                 // by node
  std::vector<std::set<NodeId>> with_free_now_; // by pod: its nodes with GPUs free now, for questions about now
  std::vector<bool> in_service_;
  // Per node, (time, change of free GPUs), by time and, at one time, gains before losses.
  std::vector<std::vector<std::pair<double, int>>> changes_;
  // The stretch indexes, as they were when last asked: a question brings its pod's up to date
  // (every level worked out there, for the nodes changed since), and nothing is done before.
  mutable std::vector<std::vector<std::optional<FreeStretchIndex>>> at_least_; // by pod, by level - 1
  mutable std::vector<WholeFreeStretches> whole_free_;                        // by pod
  mutable std::vector<std::vector<LevelStretch>> stretches_;                  // by node, as last worked out
  // Nodes marked since their pod's were last dealt with, each once.
  struct MarkedNodes {
    MarkedNodes(std::size_t pods, std::size_t nodes) : by_pod(pods), marked(nodes) {}
    void mark(NodeId node, int pod);
    const std::vector<NodeId>& of(int pod) const { return by_pod[static_cast<std::size_t>(pod)]; }
    void clear(int pod);
    std::vector<std::vector<NodeId>> by_pod;
    std::vector<bool> marked; // by node
  };
  mutable MarkedNodes stale_;       // timeline changed since its stretches were worked out
  mutable MarkedNodes whole_stale_; // wholly free stretches changed since whole_free_ took them
  // For refresh(), kept to spare allocations.
  mutable std::vector<LevelStretch> fresh_scratch_, moved_scratch_, by_time_scratch_;
  mutable std::vector<double> since_scratch_;
  mutable std::vector<std::size_t> first_scratch_;
  mutable std::vector<char> taken_off_scratch_; // by node of a pod, for most_wholly_free_before()
};

} // namespace acmesim
