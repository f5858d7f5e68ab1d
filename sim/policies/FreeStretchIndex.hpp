#pragma once
// The stretches of time in which nodes of one pod each have at least some number of GPUs free,
// kept in start order with the longest of every block of them, so that the earliest stretch long
// enough for a job is found without reading every node's timeline (conservative backfilling's
// reservations of one-node jobs).
#include "sim/policy_api/ClusterState.hpp"

#include <optional>
#include <vector>

namespace acmesim {

// [from, to) on one node; to may be +infinity.
struct FreeStretch {
  double from, to;
  NodeId node;
};

// In order of start, ties to the lower node: no two stretches of a node overlap, so none tie.
struct ByStart {
  bool operator()(const FreeStretch& a, const FreeStretch& b) const
  {
    return a.from < b.from || (a.from == b.from && a.node < b.node);
  }
};

class FreeStretchIndex {
public:
  // Stretches are told apart by (from, node): those of one node must not overlap.
  // Replaces every stretch: one sort instead of an insert each.
  void assign(std::vector<FreeStretch> stretches);
  void insert(const FreeStretch& stretch);
  void erase(const FreeStretch& stretch); // one inserted before, and not erased since

  struct Starts {
    double at;
    std::vector<NodeId> nodes; // ascending
  };
  // The earliest start after `now` of a stretch that holds `duration_s` (its end not before
  // from + duration_s, as the timeline reckons a window), and the nodes of every such stretch
  // that starts then. Stretches that began by `now` are not looked at.
  std::optional<Starts> earliest_after(double now, double duration_s) const;

  std::size_t size() const;

private:
  // A sorted vector cut into blocks, each knowing its longest stretch: a question skips the
  // blocks that hold none long enough, and a change moves at most one block's stretches.
  struct Block {
    std::vector<FreeStretch> stretches; // by (from, node)
    double longest = 0;
    int at_longest = 0; // stretches that long: the longest is sought again only when none is left
    void counted(double length); // a stretch came in
    void find_longest();
  };
  std::vector<Block> blocks_;

  // The first block whose last stretch is not before `stretch` (or the last block).
  std::vector<Block>::iterator block_for(const FreeStretch& stretch);
};

} // namespace acmesim
