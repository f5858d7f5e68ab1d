#pragma once
// The published Acme workload distributions (Hu et al., "Characterization of Large Language
// Model Development in the Datacenter", NSDI'24; AcmeTrace release, CC BY 4.0), parsed from the
// CSV files of configs/acme-published/ into typed targets per cluster. The texts are passed in,
// so this stays free of file locations and of the embedded-config machinery.
#include "models/acme/TraceStatistics.hpp"
#include "models/workload/Job.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// A published CDF, at the x values as given (plotted vertices only, see the README of
// configs/acme-published): percent[i] = percent of the population with value <= x[i].
struct PublishedCdf {
  std::vector<double> x;
  std::vector<double> percent;
  bool empty() const { return x.empty(); }
  // The published percent at exactly x, if x is one of the published points.
  std::optional<double> at(double value) const
  {
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i] == value)
        return percent[i];
    return std::nullopt;
  }
};

struct PublishedCluster {
  std::string name; // as in the CSVs: "Seren", "Kalos", "Philly", "Helios", "PAI"
  // Fig. 4 treemap: shares of GPU jobs by type. Types the figure leaves out (Kalos: SFT and
  // MLLM, dropped by the authors' analysis) have no entry.
  std::map<JobType, double> type_share_of_jobs_percent;
  std::map<JobType, double> type_share_of_gpu_time_percent;
  // Final-state shares of GPU jobs (cluster_summary.csv): COMPLETED, CANCELLED and FAILED, where
  // FAILED includes TIMEOUT and NODE_FAIL (AcmeTrace README); see published_state_bucket.
  std::map<JobState, double> state_share_of_jobs_percent;
  std::map<JobState, double> state_share_of_gpu_time_percent;
  PublishedCdf duration_cdf;                          // Fig. 2a: GPU-job duration (s)
  PublishedCdf gpu_count_cdf_by_jobs;                 // Fig. 3: GPUs per job, by job count
  PublishedCdf gpu_count_cdf_by_gpu_time;             // Fig. 3: GPUs per job, by GPU time
  std::map<JobType, PublishedCdf> duration_cdf_by_type; // Fig. 6a/c
  std::map<JobType, PublishedCdf> queue_cdf_by_type;    // Fig. 6b/d (queueing delay, s)
  std::map<JobType, BoxStats> gpu_box_by_type;          // Fig. 5
  // Every non-empty numeric column of cluster_summary.csv, by column name ("avg_gpu_num",
  // "med_run_time_gpu", "complete_rate_gpu", ...). Rates there are fractions, not percents.
  std::map<std::string, double> summary;
  // Days from the first to the last submission of the released trace, which the summary's
  // counts and GPU time are over: Seren March-August 2023 (184 days), Kalos May 17 - August 31
  // (107 days), acme-facts.md §3.1; 0 for the clusters whose span is not known here.
  double trace_span_days = 0;

  std::optional<double> summary_value(const std::string& column) const;
  // GPU-seconds of all GPU jobs: the summary's complete, cancel and fail GPU time, if published.
  std::optional<double> gpu_seconds() const;
  // That GPU time per day of the trace span, if both are known.
  std::optional<double> gpu_seconds_per_day() const;
};

struct PublishedAcme {
  std::map<std::string, PublishedCluster> clusters; // by name as in the CSVs

  // Case-insensitive ("seren" finds "Seren"); nullptr if the cluster is not published.
  const PublishedCluster* find(std::string_view name) const;
};

// The five files, by their names under configs/acme-published/.
struct PublishedAcmeTexts {
  std::string_view cluster_summary;        // cluster_summary.csv
  std::string_view fig2a_duration_cdf;     // fig2a_gpu_job_duration_cdf_all_traces.csv
  std::string_view fig3_gpu_num_cdf;       // fig3_gpu_num_cdf.csv
  std::string_view fig6_duration_queue_cdf; // fig6_duration_queue_cdf_by_type.csv
  std::string_view treemap_state_box;      // treemap_jobstate_box_summary.csv
};

inline constexpr std::array<std::string_view, 5> PUBLISHED_ACME_FILES{
    "cluster_summary.csv", "fig2a_gpu_job_duration_cdf_all_traces.csv", "fig3_gpu_num_cdf.csv",
    "fig6_duration_queue_cdf_by_type.csv", "treemap_jobstate_box_summary.csv"};

// InputError naming "<file>:<line>" for a malformed file (a missing column, a non-numeric
// value, an unknown job type or state).
PublishedAcme parse_published_acme(const PublishedAcmeTexts& texts);
// Reads the five files from a directory (configs/acme-published), for tests and tools that do
// not link the embedded configs. InputError if a file cannot be read.
PublishedAcme read_published_acme_directory(const std::string& directory);

// The published state a trace state is counted in: TIMEOUT and NODE_FAIL count as FAILED.
JobState published_state_bucket(JobState state);
inline constexpr std::array<JobState, 3> PUBLISHED_STATES{JobState::Completed, JobState::Cancelled,
                                                          JobState::Failed};

} // namespace acmesim
