#pragma once
// Statistics of a job trace in the terms the Acme paper publishes (Hu et al., NSDI'24, Fig. 2a-6
// and the trace release's cluster_summary.csv). Engine-free: works on any Workload, real or
// generated. Only GPU jobs enter the distributions, as in the published figures; CPU-only jobs
// are counted apart. Undefined values (a quantile of no jobs, a share of zero GPU time) are
// std::nullopt, never NaN, so an empty trace still gives a well-formed report.
#include "models/workload/Job.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace acmesim {

inline constexpr std::size_t JOB_TYPE_COUNT = enum_values<JobType>().size();
inline constexpr std::size_t JOB_STATE_COUNT = enum_values<JobState>().size();

// Quantiles reported for GPUs per job (the Fig. 5 box) and for durations.
inline constexpr std::array<double, 3> GPU_QUANTILES{0.25, 0.5, 0.75};
inline constexpr std::array<double, 5> DURATION_QUANTILES{0.25, 0.5, 0.75, 0.9, 0.99};
// The quantiles of queueing delay acme-facts.md §3.5 reads off Fig. 6b/d.
inline constexpr std::array<double, 4> WAIT_QUANTILES{0.5, 0.75, 0.9, 0.99};

enum class CdfWeighting { Jobs, GpuTime };

// Box-plot statistics as matplotlib draws them (Fig. 5): quartiles, and whiskers at the most
// extreme data within 1.5 IQR of the box.
struct BoxStats {
  double q1 = 0;
  double median = 0;
  double q3 = 0;
  double whisker_low = 0;
  double whisker_high = 0;
};

// The empirical distribution of one quantity (GPUs per job, or duration) over a set of jobs,
// compressed to its distinct values so that a CDF or a quantile can be evaluated at any point
// in O(log n) however large the trace.
class Distribution {
public:
  // Each sample is (value, GPU-seconds of its job); the order does not matter.
  static Distribution from_samples(std::vector<std::pair<double, double>> samples);

  std::size_t jobs() const { return cumulative_jobs_.empty() ? 0 : cumulative_jobs_.back(); }
  double gpu_seconds() const { return cumulative_gpu_seconds_.empty() ? 0 : cumulative_gpu_seconds_.back(); }
  bool empty() const { return values_.empty(); }
  const std::vector<double>& values() const { return values_; } // distinct, ascending

  // Percent of the jobs (or of their GPU time) with value <= x; nullopt when that total is 0.
  std::optional<double> cdf_percent(double x, CdfWeighting weighting = CdfWeighting::Jobs) const;
  // Quantile by job count, linear interpolation between order statistics (numpy's and pandas'
  // default, hence matplotlib's box plot and the medians of cluster_summary.csv); p in [0, 1].
  std::optional<double> quantile(double p) const;
  std::optional<double> mean() const;
  std::optional<double> min() const;
  std::optional<double> max() const;
  std::optional<BoxStats> box() const;

private:
  double value_at_rank(std::size_t rank) const; // rank-th smallest sample, 0-based

  std::vector<double> values_;
  std::vector<std::size_t> cumulative_jobs_;    // jobs with value <= values_[i]
  std::vector<double> cumulative_gpu_seconds_;  // their GPU time
  double sum_ = 0;                              // sum of the values over jobs, for the mean
};

// A set of GPU jobs: the jobs of one type, or all GPU jobs.
struct GroupStatistics {
  std::size_t jobs = 0;
  double gpu_seconds = 0; // sum of gpus x duration
  Distribution gpus;       // GPUs per job
  Distribution duration_s; // run time
  Distribution wait_s;     // queueing delay, over the jobs whose source recorded one (Job::recorded_wait_s)
  std::array<std::size_t, JOB_STATE_COUNT> state_jobs{};      // index = JobState
  std::array<double, JOB_STATE_COUNT> state_gpu_seconds{};    // index = JobState

  std::optional<double> state_share_of_jobs_percent(JobState state) const;
  std::optional<double> state_share_of_gpu_time_percent(JobState state) const;
  // The reported numbers in report order, named as in the JSON report: GPUs per job "mean",
  // "p25", "p50", "p75", "whisker_low", "whisker_high", "max"; duration "mean", "p25" .. "p99", "max".
  std::vector<std::pair<std::string, std::optional<double>>> gpu_summary() const;
  std::vector<std::pair<std::string, std::optional<double>>> duration_summary() const;
  // Queueing delay "mean", "p50", "p75", "p90", "p99", "max" (empty when no wait was recorded).
  std::vector<std::pair<std::string, std::optional<double>>> wait_summary() const;
};

struct TraceStatistics {
  std::string source;
  std::size_t jobs = 0;
  std::size_t gpu_jobs = 0;
  std::size_t cpu_jobs = 0;     // gpus == 0: in no distribution below
  std::size_t skipped_rows = 0; // bad rows the reader skipped on request
  std::size_t dropped_unknown = 0; // SWF jobs of unknown fields the reader dropped on request
  double span_s = 0;            // first to last submission
  std::array<GroupStatistics, JOB_TYPE_COUNT> by_type; // index = JobType; GPU jobs only
  GroupStatistics all_gpu_jobs;

  const GroupStatistics& of(JobType type) const { return by_type[static_cast<std::size_t>(type)]; }
  // Share of the GPU jobs (or of their GPU time) that are of the given type.
  std::optional<double> share_of_jobs_percent(JobType type) const;
  std::optional<double> share_of_gpu_time_percent(JobType type) const;
  std::optional<double> cpu_job_share_percent() const; // of all jobs
};

// O(n log n) in the number of jobs.
TraceStatistics compute_trace_statistics(const Workload& workload);

// Points at which a report without published targets evaluates the CDFs: GPUs per job at
// 1, 2, 4, ... up to 1024 (further if the trace has larger jobs), durations at 2^0 .. 2^21 s
// as in Fig. 2a and 6 (further if the trace has longer jobs).
std::vector<double> default_gpu_count_points(const TraceStatistics& stats);
std::vector<double> default_duration_points(const TraceStatistics& stats);

// "p25", "p50", "p99", "p99.9": the label of a quantile in reports.
std::string quantile_label(double p);

} // namespace acmesim
