#pragma once
// `acmesim workload stats --recorded-vs-simulated RESULTS_DIR`: the waits a replayed log recorded
// beside those the run simulated, for the same jobs (docs/workload-stats.md). Waits and bounded
// slowdowns, their mean, median and 95th percentile, the largest gap between the two waits' CDFs,
// overall and by job size.
#include "models/traces/RunJobWaits.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace acmesim {

// Bounded slowdown (Feitelson et al., "Theory and practice in parallel job scheduling", 1997):
// (wait + run) / max(run, tau), at least 1, so that jobs of a few seconds do not dominate the mean.
inline constexpr double BOUNDED_SLOWDOWN_TAU_S = 10;

struct SideBySide {
  std::optional<double> recorded_mean, simulated_mean;
  std::optional<double> recorded_median, simulated_median;
  std::optional<double> recorded_p95, simulated_p95;
};

struct WaitComparison {
  std::size_t jobs = 0;
  SideBySide wait_s;
  SideBySide bounded_slowdown;
  // The largest vertical distance between the recorded and the simulated waits' CDFs (the
  // Kolmogorov-Smirnov statistic, 0 to 1), and the wait at which it is reached.
  double cdf_gap = 0;
  double cdf_gap_at_s = 0;
};

struct SizeClass {
  int min_size = 1;
  int max_size = 1; // inclusive; INT_MAX for the last class
  WaitComparison comparison;
};

struct RecordedVsSimulated {
  std::size_t rows = 0;            // jobs in jobs.csv
  std::size_t no_recorded = 0;     // of them, without a recorded wait
  std::size_t never_started = 0;   // with one, but never started in the run (rejected, stalled)
  bool recorded_column = false;    // jobs.csv has recorded_wait_s at all
  WaitComparison all;              // the jobs with both waits
  std::vector<SizeClass> by_size;  // the same jobs by size (processors or GPUs): 1, 2-8, 9-32, 33-128, 129+
};

RecordedVsSimulated compare_recorded_waits(const RunJobWaits& waits);
void print_recorded_vs_simulated(std::ostream& out, const std::string& source, const RecordedVsSimulated& r);
nlohmann::ordered_json recorded_vs_simulated_json(const std::string& source, const RecordedVsSimulated& r);

} // namespace acmesim
