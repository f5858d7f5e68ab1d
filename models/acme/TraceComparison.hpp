#pragma once
// Compares the statistics of a trace with the published Acme values of one cluster: every gap
// in percentage points (trace minus published), and for each published CDF the largest gap at
// its published x values. The generator's calibration tests assert on this structure, the
// `workload stats --against` report prints it.
#include "models/acme/PublishedAcme.hpp"
#include "models/acme/TraceStatistics.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct CdfPointGap {
  double x = 0;
  double published_percent = 0;
  std::optional<double> trace_percent; // nullopt when the trace has no population for this curve
  std::optional<double> gap_points;    // trace - published
};

struct CdfComparison {
  std::string id;          // "fig2a_duration", "fig3_gpus_by_jobs", "fig3_gpus_by_gpu_time", "fig6_duration_Eval"
  std::string figure;      // "Fig. 2a", "Fig. 3", "Fig. 6"
  std::string description; // "GPU-job duration (s), % of jobs <= x"
  std::optional<JobType> type; // Fig. 6 curves are per job type
  std::vector<CdfPointGap> points; // at the published x values, in the published order
  // Largest |gap| over the points, where it is (the first such x) and its sign (trace - published);
  // nullopt when the trace has nothing to evaluate (no GPU jobs of the type).
  std::optional<double> max_abs_gap_points;
  std::optional<double> max_gap_x;
  std::optional<double> max_gap_signed_points;
};

// A share (of job count or GPU time) of one job type or final state.
struct ShareComparison {
  std::string key; // "Eval", "COMPLETED"
  std::optional<double> trace_percent;
  std::optional<double> published_percent;
  std::optional<double> gap_points; // trace - published, when both exist
};

struct BoxComparison {
  JobType type = JobType::Other;
  std::optional<BoxStats> trace;
  BoxStats published;
};

// A scalar of cluster_summary.csv (mean and median duration, GPUs per job, ...).
struct ValueComparison {
  std::string key;  // the cluster_summary.csv column, "cpu_job_share_percent" or "gpu_hours_per_day"
  std::string unit; // "s", "GPUs", "percent"
  std::optional<double> trace;
  std::optional<double> published;
  std::optional<double> ratio; // trace / published, when published != 0
};

struct ComparisonReport {
  std::string cluster; // as published: "Seren"
  std::vector<CdfComparison> cdfs; // Fig. 2a, Fig. 3 by jobs, Fig. 3 by GPU time, Fig. 6 per type
  // Fig. 6b/d: queueing delay per type, for traces that record one (Job::recorded_wait_s): how a
  // cluster was scheduled, not what its jobs were, so apart from the workload's curves.
  std::vector<CdfComparison> queue_cdfs;
  // Fig. 4 treemap. The shares are over the GPU jobs of the types the figure shows (the authors
  // dropped SFT and MLLM from Kalos); unpublished_type_jobs counts the trace's GPU jobs left out.
  std::vector<ShareComparison> type_share_of_jobs;
  std::vector<ShareComparison> type_share_of_gpu_time;
  std::size_t unpublished_type_jobs = 0;
  // cluster_summary.csv: COMPLETED, CANCELLED, FAILED (trace TIMEOUT and NODE_FAIL count as FAILED).
  std::vector<ShareComparison> state_share_of_jobs;
  std::vector<ShareComparison> state_share_of_gpu_time;
  std::vector<BoxComparison> gpu_boxes; // Fig. 5, per published type
  std::vector<ValueComparison> summary;

  // Largest |gap| over every CDF curve (nullopt if no curve could be evaluated).
  std::optional<double> max_cdf_gap_points() const;
  // Largest |gap| over the queueing-delay curves (nullopt if none could be evaluated).
  std::optional<double> max_queue_gap_points() const;
  // Largest |gap| over the type and state shares.
  std::optional<double> max_share_gap_points() const;
  const CdfComparison* find_cdf(std::string_view id) const;
};

// Evaluates a trace CDF at a published curve's x values and finds the largest gap.
CdfComparison compare_cdf(const Distribution& trace, CdfWeighting weighting, const PublishedCdf& published);

ComparisonReport compare_with_published(const TraceStatistics& stats, const PublishedCluster& published);
// std::invalid_argument if `cluster` (case-insensitive) is not in `published`.
ComparisonReport compare_with_published(const TraceStatistics& stats, const PublishedAcme& published,
                                        std::string_view cluster);

} // namespace acmesim
