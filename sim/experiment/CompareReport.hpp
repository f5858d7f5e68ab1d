#pragma once
// The report of a paired comparison: every metric of RunMetrics, paired seed by seed.
#include "sim/experiment/PairedStats.hpp"
#include "sim/report/RunMetrics.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace acmesim {

// One side of a comparison as the user wrote it.
struct CompareSide {
  std::string label;            // "A" or "B"
  std::string scenario;         // file path, or "" for the embedded default scenario
  std::vector<std::string> set; // its --set overrides
};

struct MetricComparison {
  std::string metric;
  PairedDifference stats;
};

// `a_runs[i]` and `b_runs[i]` are the metrics of seed i on each side. A metric is paired on the
// seeds where both sides have it (a job type may be absent from a short run); metrics keep the
// order of RunMetrics, those only B has come last.
std::vector<MetricComparison> compare_metrics(const std::vector<std::vector<RunMetric>>& a_runs,
                                              const std::vector<std::vector<RunMetric>>& b_runs,
                                              double confidence);

// "B lower", "B higher", or "" when the interval of B - A holds zero.
std::string verdict(const PairedDifference& stats);

nlohmann::json compare_json(const CompareSide& a, const CompareSide& b, const std::vector<std::uint64_t>& seeds,
                            double confidence, const std::vector<MetricComparison>& metrics);

// The terminal table: one row per metric with both means, B - A with its interval, B / A with
// its interval, and the verdict.
std::string compare_table(const CompareSide& a, const CompareSide& b, std::size_t seeds, double confidence,
                          const std::vector<MetricComparison>& metrics);

} // namespace acmesim
