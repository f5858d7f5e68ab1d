#pragma once
// A plan file: the question "what is the cheapest configuration that meets these targets",
// answered by `acmesim plan` (docs/planning.md). For example:
//
//   scenario: ../scenarios/kalos-capacity.yaml   # relative to this file; omitted: the embedded default
//   set: {workload.synthetic.days: 7}            # applied to every run
//   seeds: 5                                     # every candidate runs on the same seeds (>= 2)
//   confidence: 0.95                             # of the one-sided bound a target is judged by
//   variables:
//     cluster.pods.0.nodes: {from: 160, to: 302, step: 2, search: bisect}
//     recovery.spare_nodes: {values: [0, 2, 4]}  # search: grid (the default)
//   cost:                                        # capital plus energy, or {metric: energy.it_kwh}
//     per_unit: {cluster.pods.0.nodes: 250000}   # a node's price
//     energy: {price_per_kwh: 0.12, horizon_days: 1095}   # facility kWh over three years
//     unit: USD
//   targets:
//     - {metric: wait_s.by_type.Eval.p95, at_most: 600}
//     - {metric: training.ettr_large.mean, at_least: 0.95}
//   guards:                                      # relative to the base scenario (no variable set)
//     - {metric: jct_s.by_type.Pretrain.mean, worsens_by_at_most: 0.10}
//   warn_worse_than: 0.10                        # flag any other metric this much worse than the base
//   robustness: {load_scale: [1.2, 1.5]}         # the answer rerun under more load
#include "sim/experiment/ExperimentFile.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct PlanVariable {
  std::string key;
  // In the order of the file (or of the range): as given to --set, and as a number when it is one.
  std::vector<std::string> values;
  std::vector<std::optional<double>> numbers;
  // Bisection assumes that once every target is met at a value, it is met at every later value
  // of the list; the search finds the first such value. A grid runs every value.
  bool bisect = false;
};

struct PlanTarget {
  std::string metric; // a metric of compare and sweep (docs/experiments.md)
  bool at_most = true; // else at least
  double threshold = 0;
  std::string describe() const; // "wait_s.by_type.Eval.p95 <= 600"
};

// A guard: a metric the answer may not worsen, relative to the base scenario, beyond a share of
// the base's mean. It is judged like a target, on the seeds' paired differences from the base.
struct PlanGuard {
  std::string metric;
  double worsens_by_at_most = 0; // 0.1: at most 10% worse than the base's mean
  bool lower_is_better = true;   // from the metric table
  std::string describe() const;  // "jct_s.by_type.Pretrain.mean at most 10% worse than the base"
};

// Energy bought over a horizon: the run's facility energy per second of its makespan (its mean
// facility power) held for horizon_days, at a price per kWh.
struct PlanEnergyCost {
  double price_per_kwh = 0;
  double horizon_days = 0;
};

struct PlanCost {
  std::optional<std::string> metric; // its mean over the seeds; else capital and energy below
  double fixed = 0;
  std::vector<double> per_unit; // one price per variable (0 for a variable without one)
  std::optional<PlanEnergyCost> energy;
  std::string unit; // a label: "USD", "GPUs"; empty: none given
  std::string describe(const std::vector<PlanVariable>& variables) const;
};

struct PlanSpec {
  std::string name;
  std::string source;
  std::string scenario;        // absolute path; empty: the embedded default
  std::string scenario_digest;
  std::vector<std::string> set;
  std::map<std::string, std::string> key_where; // where each set key and variable is written (ExperimentFile.hpp)
  std::vector<std::uint64_t> seeds;
  double confidence = 0.95;
  std::vector<PlanVariable> variables;
  std::vector<PlanTarget> targets;
  std::vector<PlanGuard> guards;
  // Any metric with a direction, neither target nor guard, this share worse than the base's is
  // flagged beside the answer (it does not change the answer).
  double warn_worse_than = 0.10;
  std::vector<double> robustness_load_scales; // the answer rerun at each workload.load_scale
  PlanCost cost;
  std::string out;
  SlurmOptions slurm;

  // Candidates are numbered in mixed radix over the variables, the first varying slowest.
  std::size_t candidate_count() const;
  std::vector<std::size_t> value_indices(std::size_t candidate) const;
  std::size_t candidate_of(const std::vector<std::size_t>& value_indices) const;
  std::string candidate_id(std::size_t candidate) const; // "c000123"
};

// Throws InputError (file:line, key, value, what was expected) for anything malformed.
PlanSpec load_plan_file(const std::string& path);
PlanSpec parse_plan(std::string_view text, const std::string& source, const std::string& base_dir,
                    const std::string& default_name);

} // namespace acmesim
