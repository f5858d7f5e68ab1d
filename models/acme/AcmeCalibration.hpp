#pragma once
// A job distribution fitted to what Acme published for one cluster (NSDI'24, AcmeTrace release):
// the expected share of GPU jobs in each cell (job type, GPUs, duration band, final state).
//
// Why cells: the published numbers constrain sums over cells, each a linear function of the
// cell shares: per-type duration CDFs (Fig. 6) and count shares (Fig. 4) fix each type's mass
// per duration band; Fig. 3 fixes jobs and GPU time per GPU-count interval; Fig. 4 fixes GPU
// time per type; cluster_summary.csv fixes jobs and GPU time per final state; Fig. 5's
// quartiles bound each type's jobs at or below them. GPUs and
// duration cannot be independent within a type (the GPU-time curve asks for 1-GPU jobs shorter
// than any type's mean), so the coupling is fitted too. Iterative proportional fitting from a
// prior (Fig. 5 boxes x Fig. 6 bands x uniform states) meets every family in turn; it converges
// to the distribution closest to the prior (in relative entropy) that meets all of them.
#include "models/acme/PublishedAcme.hpp"

#include <string>
#include <vector>

namespace acmesim {

struct CalibrationCell {
  JobType type = JobType::Other;
  int gpus = 1;
  double duration_lo_s = 1; // the band: durations in (lo, hi], log-linear inside; lo == hi: exactly lo
  double duration_hi_s = 1;
  JobState state = JobState::Completed;
  double share = 0; // expected fraction of GPU jobs
};

struct AcmeCalibration {
  std::string cluster;
  std::vector<CalibrationCell> cells;
  int iterations = 0;
  double max_residual = 0; // largest relative miss of a fitted sum when fitting stopped
};

struct CalibrationOptions {
  int max_iterations = 1500; // Seren converges in about 200; Kalos stops at ~2% relative miss
  double tolerance = 1e-3; // largest relative miss of any fitted sum
  // Prior weight of GPU counts just outside a type's Fig. 5 whiskers, relative to those inside
  // (falling with the square of the distance, and with the type's GPU time per job below the
  // cluster's): the boxes leave outliers out, and the fit needs them (jobs of 32-1024 GPUs that
  // are not pretraining exist: Fig. 3 has 2.1% of Seren's jobs above 16 GPUs and 0.27% above
  // 256, Pretrain is 0.9% of jobs and at most a quarter of them are above its q3 of 256).
  double outlier_prior = 0.02;
};

// The expected GPU-seconds of one GPU job (durations log-linear within their bands).
double mean_gpu_seconds_per_job(const AcmeCalibration& calibration);

// InputError if the cluster lacks a curve the fit needs.
AcmeCalibration calibrate_to_published(const PublishedCluster& published, const CalibrationOptions& options = {});

} // namespace acmesim
