#pragma once
// Typed description of where a run's jobs come from: a trace file or the synthetic generator.
#include "models/workload/EmpiricalSpec.hpp"
#include "models/workload/Job.hpp"
#include "models/workload/RuntimeEstimates.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace acmesim {

// What a trace reader does with a row it cannot read (workload.on_bad_row).
enum class BadRowPolicy : std::uint8_t { Error, Skip };
constexpr auto enum_names(BadRowPolicy) { return names_in_order<BadRowPolicy>("error", "skip"); }

// What the SWF reader does with a job whose submit time, run time or size is -1, unknown
// (workload.on_unknown): a bad row, or a job dropped and counted (Workload::dropped_unknown), as
// users of the Parallel Workloads Archive filter such jobs by convention.
enum class UnknownPolicy : std::uint8_t { Error, Drop };
constexpr auto enum_names(UnknownPolicy) { return names_in_order<UnknownPolicy>("error", "drop"); }


struct SyntheticTypeSpec {
  JobType type = JobType::Other;
  double arrivals_per_hour = 0;   // Poisson arrival rate of this type
  EmpiricalSpec gpus;             // discrete: a draw is one of `values` (0 = CPU-only job)
  EmpiricalSpec duration_s;       // continuous: log-linear interpolation between points
  // Share of each final state (index = JobState), summing to 1. Default: all COMPLETED.
  std::array<double, 5> state_shares{1, 0, 0, 0, 0};
  int cpus_per_gpu = 16; // Acme nodes: 128 CPUs for 8 GPUs (NSDI'24 §3.3, "16 CPUs per GPU")
  int cpus_if_cpu_only = 4;
};

struct SyntheticSpec {
  double days = 3;   // length of the arrival window
  int users = 100;   // synthetic user names u0..u<users-1>, drawn uniformly
  std::vector<SyntheticTypeSpec> types;
};

// The job-trace formats acmesim reads (TraceFormat.hpp), all mapped onto the same Job schema.
enum class TraceFormat : std::uint8_t {
  Acme,   // InternLM/AcmeTrace CSV (Seren and Kalos schemas)
  Swf,    // Standard Workload Format of the Parallel Workloads Archive
  Philly, // Microsoft Philly trace, cluster_job_log (JSON)
  Helios, // SenseTime Helios trace, cluster_log.csv
  Jobs,   // a run's own jobs.csv (docs/outputs.md), read back for statistics or replay
};
constexpr auto enum_names(TraceFormat)
{
  return names_in_order<TraceFormat>("acme", "swf", "philly", "helios", "jobs");
}

struct TraceSpec {
  std::string path;       // as resolved (relative paths are relative to the scenario file)
  std::string as_written; // as written in the scenario (reported, so results do not depend on the cwd)
  TraceFormat format = TraceFormat::Acme; // named, or told by the file name
  BadRowPolicy on_bad_row = BadRowPolicy::Error;
  UnknownPolicy on_unknown = UnknownPolicy::Error; // SWF only
};

// The generator calibrated to Acme's published distributions (models/acme/AcmeGenerator.hpp): what a
// scenario sets of it.
struct AcmeGeneratorSpec {
  double days = 30;
  // GPU jobs per day; 0 takes the rate that offers the published load: the published GPU time
  // over the trace's span (cluster_summary.csv complete + cancel + fail GPU time over Seren's
  // 184 days, Mar-Aug 2023, or Kalos' 107 days, May 17-Aug 31) divided by the fitted GPU time
  // of one job.
  double gpu_jobs_per_day = 0;
  // CPU-only jobs as a share of all jobs; < 0 takes the published cpu_job_num / job_num.
  double cpu_job_share = -1;
  int users = 300;
  // Arrival rhythm (assumptions: the paper shows a diurnal pattern but publishes no numbers):
  // rate x (1 + amplitude x cos(2 pi (hour - peak_hour) / 24)), x weekend_factor on Sat/Sun.
  double diurnal_amplitude = 0.5;
  double peak_hour = 15;
  double weekend_factor = 0.6;
  double eval_batch_mean = 20;       // evaluation jobs per batch (geometric, one user); 1 = no batching
  // Pretraining jobs are the attempts of concurrent campaigns, each busy this share of the time
  // (so there are about total pretraining run time / (days x share) of them); 0: no campaigns,
  // pretraining jobs arrive like the others.
  double campaign_busy_share = 0.8;
  // The scenario's workload.load_scale (not a key of the generator): every job count, GPU and CPU,
  // times this; pretraining's campaigns grow in number, each as busy as before.
  double load_scale = 1;
};

// The generator calibrated to Acme's published distributions, for one preset.
struct AcmePresetSpec {
  std::string preset = "seren"; // seren | kalos | acme
  AcmeGeneratorSpec generator;
};

struct WorkloadSpec {
  std::optional<TraceSpec> trace;         // exactly one of trace, synthetic and acme_preset is set
  std::optional<SyntheticSpec> synthetic; // per-type tables given in the scenario
  std::optional<AcmePresetSpec> acme_preset; // `synthetic: {preset: seren, days: 30}`
  double load_scale = 1; // offered load of every type times this (models/workload/LoadScale.hpp)
  // The estimate model schedulers see (workload.estimates and workload.estimate_factor).
  EstimateModel estimates = EstimateModel::Actual;
  double estimate_factor = 1;
  RuntimeEstimates runtime_estimates() const { return {estimates, estimate_factor}; }
};

} // namespace acmesim
