#pragma once
// The short summary of a run that `acmesim run` prints on stdout, read from its RunSummary.
#include "sim/config/Scenario.hpp"
#include "sim/report/RunSummary.hpp"

#include <ostream>
#include <string>

namespace acmesim {

void print_summary(std::ostream& out, const RunSummary& summary, const Scenario& scenario, const std::string& out_dir);

} // namespace acmesim
