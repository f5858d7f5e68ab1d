#pragma once
// The stretches of time in which nodes of one pod are wholly free, kept ordered by start and by
// end as nodes' timelines change, for the earliest time a job of whole nodes fits (conservative
// backfilling's reservations of multi-node jobs).
#include "sim/policies/FreeStretchIndex.hpp"
#include "sim/policy_api/ClusterState.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace acmesim {

class WholeFreeStretches {
public:
  using Stretch = FreeStretch;

  // For the pod whose nodes are first_node, first_node + 1, ... (`nodes` of them).
  WholeFreeStretches(NodeId first_node, int nodes);

  // Replaces the stretches of `nodes` with `stretches` (theirs: disjoint on each node, non-empty).
  void replace(const std::vector<NodeId>& nodes, std::vector<Stretch> stretches);

  struct Fit {
    double start;
    std::vector<NodeId> nodes; // the lowest ids among those that fit then
  };
  // The earliest time from `now` on at which `nodes` stretches cover [t, t + duration_s), and
  // those nodes. Stretches that began before `now` are read as beginning at it.
  std::optional<Fit> earliest(int nodes, double duration_s, double now) const;
  // The most stretches that cover [t, t + duration_s) at one t in [now, before). A stretch of a
  // node marked in `taken_off` (by node, from the pod's first; empty: none) that reaches
  // `before` is read as going on past it: those nodes' reservation from `before`, taken off.
  int most_at_once(double duration_s, double now, double before, const std::vector<char>& taken_off = {}) const;

private:
  // Sweeps the starts in order, with how many stretches cover [t, t + duration_s) at each start t,
  // until `stop(t, open)` says so; returns that t. A stretch `endless(s)` says so of covers every
  // t from its start on.
  template <typename Endless, typename Stop>
  std::optional<double> sweep(double duration_s, double now, Endless endless, Stop stop) const;
  // Whether `s`, read from `now` on, is at least `duration_s` long.
  static bool lasts(const Stretch& s, double duration_s, double now)
  {
    return s.to - std::max(s.from, now) >= duration_s;
  }
  struct ByEnd {
    bool operator()(const Stretch& a, const Stretch& b) const
    {
      return a.to < b.to || (a.to == b.to && a.node < b.node);
    }
  };
  // Drops the stretches of the nodes marked in `replaced_` and merges `fresh` in, in order.
  template <typename Order>
  void merge(std::vector<Stretch>& into, std::vector<Stretch>& fresh) const;

  NodeId first_node_;
  // Sorted vectors, not trees: a question sweeps them whole anyway, and a change is a few nodes'
  // stretches filtered out and merged in, in one pass.
  std::vector<Stretch> by_start_, by_end_;
  std::vector<char> replaced_; // by node, from first_node_: scratch for replace()
};

} // namespace acmesim
