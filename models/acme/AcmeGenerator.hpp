#pragma once
// Generates a job trace shaped like Acme's published distributions (AcmeCalibration), with
// the arrival structure the paper describes: a daily and weekly rhythm, evaluation jobs
// submitted in batches (one batch per evaluated checkpoint), failed pretraining jobs
// resubmitted shortly after. Deterministic for a seed.
//
// Job counts per calibration cell are apportioned systematically (each cell gets the floor or
// the ceiling of its expected count) and durations sit at stratified quantiles of their band:
// i.i.d. sampling would let a handful of multi-day 1,024-GPU jobs move GPU-time shares by
// several points in a six-month trace. Only arrival times, users and batch boundaries are
// drawn at random.
#include "models/acme/AcmeCalibration.hpp"
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <cstdint>

namespace acmesim {

// Published values the generator needs besides the calibration: job rates and CPU jobs.
struct AcmeClusterFacts {
  double gpu_seconds_per_day = 0; // 0: not published; the job count then sets the rate
  double gpu_jobs_per_day = 0;
  double cpu_job_share = 0;
  double cpu_median_s = 14, cpu_mean_s = 734;          // CPU-only job durations (log-normal)
  double cpu_completed = 0.86, cpu_cancelled = 0.04;   // CPU-only job final states; rest FAILED
};
AcmeClusterFacts published_facts(const PublishedCluster& published);

Workload generate_acme_workload(const AcmeCalibration& calibration, const AcmeClusterFacts& facts,
                                const AcmeGeneratorSpec& spec, std::uint64_t seed);

// The presets users name: "seren", "kalos", or "acme" (both clusters, each calibrated to its
// own published values, merged; job names start with the cluster). Every job's home is its
// cluster. InputError for others.
inline constexpr const char* ACME_PRESETS = "seren, kalos, acme";
Workload generate_acme_preset(const PublishedAcme& published, const std::string& preset,
                              const AcmeGeneratorSpec& spec, std::uint64_t seed);

} // namespace acmesim
