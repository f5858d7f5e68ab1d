#pragma once
// Summary statistics of a sample, as reported in summary.json.
#include <cstddef>
#include <vector>

namespace acmesim {

struct SampleSummary {
  std::size_t count = 0;
  double mean = 0;
  double p50 = 0;
  double p95 = 0;
  double p99 = 0;
  double max = 0;
};

// Quantiles by the nearest-rank method (the smallest value with at least p of the sample at
// or below it), so every reported quantile is a value that occurred. Empty sample: all zero.
SampleSummary summarise(std::vector<double> values);
double nearest_rank_quantile(const std::vector<double>& sorted, double p);

} // namespace acmesim
