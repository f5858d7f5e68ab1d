#pragma once
// Summary statistics of a sample, as summary.json reports them.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace acmesim {

// An empty sample has a count and nothing else: its mean and quantiles are null, not a misleading 0.
struct SampleStats {
  std::size_t count = 0;
  std::optional<double> mean, p50, p95, p99, min, max;
};

// Quantiles by the nearest-rank method (the smallest value with at least p of the sample at or
// below it), so every reported quantile is a value that occurred.
SampleStats summarise(std::vector<double> values);
// The same of a sample already in ascending order (sort_sample), for callers that build one
// sample from others: merging sorted parts costs a fraction of sorting the whole again.
SampleStats summarise_sorted(std::span<const double> sorted);
// Ascending order. The values are never NaN nor -0 (times and ratios), so the order is unique,
// and with it the sum, added in that order.
void sort_sample(std::span<double> values);
double nearest_rank_quantile(std::span<const double> sorted, double p); // 0 for an empty sample

} // namespace acmesim
