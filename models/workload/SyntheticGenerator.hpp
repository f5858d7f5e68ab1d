#pragma once
// Basic synthetic workload: per job type a Poisson arrival process and empirical GPU-count,
// duration and final-state distributions. Deterministic for a seed: each type draws from its
// own named stream ("workload.synthetic.<Type>").
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <cstdint>

namespace acmesim {

// Precondition: the spec was validated (tables pass check_empirical_spec, rates >= 0,
// shares sum to 1). The result is normalised (sorted by submission, dense ids).
Workload generate_synthetic_workload(const SyntheticSpec& spec, std::uint64_t seed);

} // namespace acmesim
