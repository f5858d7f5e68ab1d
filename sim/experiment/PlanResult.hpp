#pragma once
// What a plan found (docs/planning.md): every candidate it ran, judged target by target on the
// one-sided confidence bound of its mean over the seeds; the cheapest that meets every target;
// the cheaper ones just below it and what each misses; or, when none meets them all, the targets
// no candidate met. Written as plan.json and a terminal table.
#include "sim/experiment/PairedStats.hpp"
#include "sim/experiment/PlanSpec.hpp"
#include "sim/report/RunMetrics.hpp"


#include <cstddef>
#include <optional>
#include <ostream>
#include <vector>

namespace acmesim {

struct TargetResult {
  OneSidedMean value;
  double bound = 0;      // the side of the interval the target is judged by
  bool met = false;
  double confidence = 0; // with which the target is met (OneSidedMean::confidence_at_*)
};

struct CandidateResult {
  std::size_t candidate = 0;
  std::vector<TargetResult> targets; // in the plan's order
  double cost = 0;
  bool feasible() const;
};

// Judges a candidate from its runs' metrics (one list per seed, in the plan's seed order).
// Throws InputError when a target's or the cost's metric is not among a run's metrics, listing
// those it has.
CandidateResult judge_candidate(const PlanSpec& spec, std::size_t candidate,
                                const std::vector<std::vector<RunMetric>>& runs);

struct PlanOutcome {
  std::vector<CandidateResult> candidates; // in candidate order
  std::optional<std::size_t> answer;       // index into candidates
  std::vector<std::size_t> just_below;     // cheaper candidates, dearest first (at most three)
  std::vector<std::size_t> unmet_targets;  // targets no candidate met (when there is no answer)
  std::size_t rounds = 0;
  std::size_t runs = 0;
};

// The cheapest candidate that meets every target (ties: the first in candidate order).
PlanOutcome conclude_plan(const PlanSpec& spec, std::vector<CandidateResult> candidates, std::size_t rounds);

Json plan_json(const PlanSpec& spec, const PlanOutcome& outcome);
void print_plan(std::ostream& out, const PlanSpec& spec, const PlanOutcome& outcome);

} // namespace acmesim
