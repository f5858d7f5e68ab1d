#pragma once
// The search of a plan (docs/planning.md), apart from running anything: which candidates to run
// next, given whether those run so far met every target. Every combination of the grid variables
// is searched on its own: with a bisection variable, its last value is run first (if the targets
// are not met there, they are met nowhere along it), then the first value that meets them is
// found by halving; without one, the combination is run once. The candidates of one round are
// independent, so they run in parallel.
#include "sim/experiment/PlanSpec.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace acmesim {

class PlanSearch {
public:
  explicit PlanSearch(const PlanSpec& spec);

  // The candidates to run in the next round, in increasing order; empty when the search is over.
  // Each must be told() before the following round is asked for.
  std::vector<std::size_t> next_round();
  void tell(std::size_t candidate, bool meets_targets);

  std::size_t rounds() const { return rounds_; }

private:
  // One combination of the grid variables, searched along the bisection variable (if any).
  struct Line {
    std::vector<std::size_t> grid_indices; // the value index of every variable (the bisected one unused)
    std::size_t low = 0, high = 0;         // the first value meeting the targets is in [low, high]
    bool top_checked = false;
    bool done = false;
    std::optional<std::size_t> asked;      // the value index asked in the current round
  };

  std::size_t candidate(const Line& line, std::size_t value) const;

  const PlanSpec& spec_;
  std::optional<std::size_t> bisected_; // the index of the bisection variable
  std::vector<Line> lines_;
  std::size_t rounds_ = 0;
};

} // namespace acmesim
