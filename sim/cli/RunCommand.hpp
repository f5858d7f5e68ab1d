#pragma once
#include "sim/cli/Logging.hpp"
#include "sim/config/Scenario.hpp"

#include <string>

namespace acmesim {

// Creates the results directory before anything is simulated, so a bad --out is bad input
// (exit 2) found in a second, not an error after a long run.
void prepare_output_dir(const std::string& out);

// Simulates, writes the results into `out_dir` and prints a short summary on stdout.
int run_scenario(const Scenario& scenario, const Workload& workload, const std::string& out_dir, Verbosity verbosity);

} // namespace acmesim
