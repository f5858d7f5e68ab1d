#pragma once
// Basic synthetic workload: per job type a Poisson arrival process and empirical GPU-count,
// duration and final-state distributions. Deterministic for a seed: each type draws from its
// own named stream ("workload.synthetic.<Type>").
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <cstdint>

namespace acmesim {

// For each entry of spec.types, in order, with its own stream: Poisson arrivals (exponential gaps,
// mean 3600 / arrivals_per_hour s) at times t < days * 86400, the first one gap after t = 0. Each
// arrival then draws, in this order: gpus (Discrete table), duration_s (LogLinear table), final
// state (uniform01 against the cumulative state_shares) and user (floor(uniform01 * users)).
// cpus = gpus * cpus_per_gpu, or cpus_if_cpu_only for gpus == 0; trace_nodes = ceil(gpus / 8);
// names are "<Type>-<k>", k counting that type's jobs from 0. Types with rate 0 produce nothing.
// Streams being per type, adding or changing one type leaves the others' jobs unchanged (up to the
// common rebase of submission times). A type listed twice gets a second stream
// ("workload.synthetic.<Type>.1") instead of replaying the first.
//
// Precondition: the spec was validated (tables pass check_empirical_spec, gpus values are
// non-negative integers, rates >= 0, shares sum to 1); invalid tables throw std::invalid_argument.
// The result is normalised (sorted by submission, first at 0, dense ids), source "synthetic".
Workload generate_synthetic_workload(const SyntheticSpec& spec, std::uint64_t seed);

} // namespace acmesim
