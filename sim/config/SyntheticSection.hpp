#pragma once
// `workload: {synthetic: {days, users, types}}`: a synthetic workload described by hand, with
// an arrival rate, GPU and duration tables and final states per job type.
#include "models/workload/WorkloadSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// A generated workload is held in memory whole: about 5 GB of job records at this many jobs,
// far beyond the 880,740 jobs of the six-month Acme trace.
inline constexpr double MAX_EXPECTED_JOBS = 5e7;
// Longer generated workloads are a unit error (hours for days, say), not a plan.
inline constexpr double MAX_WORKLOAD_DAYS = 3650;

// `load_scale` (workload.load_scale) counts in the bound on the expected number of jobs.
SyntheticSpec read_synthetic(ConfigChecker& checker, const ConfigNode& node, double load_scale);
Json synthetic_to_json(const SyntheticSpec& spec);
std::vector<KeyDoc> synthetic_key_docs(const std::string& path);

} // namespace acmesim
