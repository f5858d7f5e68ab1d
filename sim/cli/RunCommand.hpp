#pragma once
#include "sim/cli/Logging.hpp"
#include "sim/config/Scenario.hpp"

#include <string>

namespace acmesim {

// Simulates, writes the results into `out_dir` and prints a short summary on stdout.
int run_scenario(const Scenario& scenario, const Workload& workload, const std::string& out_dir, Verbosity verbosity);

} // namespace acmesim
