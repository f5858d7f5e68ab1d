#pragma once
// What a plan found (docs/planning.md): every candidate it ran, judged target by target on the
// one-sided confidence bound of its mean over the seeds, and guard by guard on its paired
// difference from the base scenario; the cheapest that meets them all; the cheaper ones just
// below it and what each misses; its neighbours one step cheaper and dearer, with their margins;
// any sign that the search was not monotone; the answer's every metric beside the base's; the
// answer under more load. Or, when none meets them all, the targets no candidate met. Written as
// plan.json and a terminal report (PlanReport.hpp).
#include "sim/experiment/PairedStats.hpp"
#include "sim/experiment/PlanSpec.hpp"
#include "sim/report/RunMetrics.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace acmesim {

// The metrics of one candidate's (or the base's) runs: one list per seed, in the plan's seed order.
using SeedMetrics = std::vector<std::vector<RunMetric>>;

struct TargetResult {
  OneSidedMean value;
  double bound = 0;      // the side of the interval the target is judged by
  bool met = false;
  double confidence = 0; // with which the target is met (OneSidedMean::confidence_at_*)
  double margin = 0;     // from the bound to the threshold: positive is room, negative a miss
  std::string missing;   // why there is no value (a seed reports no such metric): then not met
};

struct GuardResult {
  OneSidedMean worsening; // per seed, the candidate's value minus the base's, positive when worse
  double base_mean = 0;
  double allowed = 0;     // worsens_by_at_most x |base_mean|
  bool met = false;       // worsening.upper <= allowed
  std::string missing;    // why the candidate has no value (a seed reports no such metric): then not met
  double relative() const; // worsening.mean / |base_mean| (infinite when the base's mean is 0)
};

struct CandidateResult {
  std::size_t candidate = 0;
  std::vector<TargetResult> targets; // in the plan's order
  std::vector<GuardResult> guards;   // in the plan's order
  double cost = 0;                   // capital + energy, or the cost metric's mean
  double capital = 0;                // per_unit x values + fixed
  double energy = 0;                 // the mean over the seeds of the energy bought over the horizon
  // Why it cannot be the answer whatever its targets: it rejects jobs the base scenario runs, its
  // cost cannot be worked out (a run reports no cost metric; then the cost is infinite).
  std::vector<std::string> unfit;
  bool feasible() const;             // fit, and meets every target and every guard
};

// Judges a candidate from its runs' metrics and the base scenario's. A metric a candidate's run
// does not report misses its target or guard, saying why (`label` names the runs: "candidate
// c000012"); one the base scenario does not report is bad input (InputError, listing those it has).
CandidateResult judge_candidate(const PlanSpec& spec, std::size_t candidate, const SeedMetrics& runs,
                                const SeedMetrics& base);
// Throws InputError when the base scenario's runs do not report a metric that a target, guard or
// cost reads (a job type the workload does not hold, energy on a CPU machine): the plan's error,
// found before any candidate runs.
void require_base_metrics(const PlanSpec& spec, const SeedMetrics& base);
std::vector<TargetResult> judge_targets(const PlanSpec& spec, const std::string& label, const SeedMetrics& runs);

// The targets a judged candidate misses, described.
std::vector<std::string> misses(const PlanSpec& spec, const CandidateResult& c);

// One metric of the answer beside the base scenario's, both means over the seeds.
struct MetricBeside {
  const MetricDecl* decl = nullptr;
  std::string name;
  double base = 0;
  double answer = 0;
  std::optional<double> change; // (answer - base) / |base|; none when the base's mean is 0
  bool worse = false;           // in the metric's worse direction, by more than float noise
  bool flagged = false;         // worse by more than warn_worse_than, and neither target nor guard
  std::string role;             // "target", "guard" or empty
};
std::vector<MetricBeside> beside_base(const PlanSpec& spec, const SeedMetrics& answer, const SeedMetrics& base);

// The answer rerun at a workload.load_scale, judged on the plan's targets.
struct RobustnessResult {
  double load_scale = 1;
  std::vector<TargetResult> targets;
  bool meets_targets() const;
};

// Along the bisection variable, a value at which a target (or guard) is met before one at which it
// is missed: bisection assumed that every target, once met, stays met.
struct NonMonotone {
  std::size_t met = 0;    // index into PlanOutcome::candidates
  std::size_t missed = 0; // index into PlanOutcome::candidates, at a later value
  std::string what;       // the target or guard, described
};

struct PlanOutcome {
  std::vector<CandidateResult> candidates; // in candidate order
  std::optional<std::size_t> answer;       // index into candidates
  std::vector<std::size_t> just_below;     // cheaper candidates, dearest first (at most three)
  std::vector<std::size_t> unmet_targets;  // targets no candidate met (when there is no answer)
  std::vector<std::size_t> unmet_guards;   // guards no candidate met (when there is no answer)
  // The answer's neighbours, when they were run: one value either side along the bisection
  // variable; without one, the candidates next in cost.
  std::optional<std::size_t> cheaper, dearer;
  std::vector<NonMonotone> non_monotone;
  std::vector<MetricBeside> beside_base; // of the answer
  std::vector<RobustnessResult> robustness;
  std::size_t rounds = 0;
  std::size_t runs = 0; // every run: candidates', the base's and the robustness reruns
};

// The cheapest candidate that meets every target and guard (ties: the first in candidate order),
// the candidates just below it, its neighbours among those run, and every non-monotone pair (for
// each target and guard, the nearest such pairs: a met value and the next later one missed).
PlanOutcome conclude_plan(const PlanSpec& spec, std::vector<CandidateResult> candidates, std::size_t rounds);

// The answer's neighbours not yet run (candidate numbers): one value either side of it along the
// bisection variable. Empty without an answer or without a bisection variable (a grid runs all).
std::vector<std::size_t> neighbours_to_run(const PlanSpec& spec, const PlanOutcome& outcome);

} // namespace acmesim
