#pragma once
// `acmesim workload generate|stats`: make and inspect job traces.
#include <string>
#include <vector>

namespace acmesim {

int cmd_workload(const std::vector<std::string>& args);          // dispatches to the subcommands
int cmd_workload_generate(const std::vector<std::string>& args); // WorkloadCommand.cpp
int cmd_workload_stats(const std::vector<std::string>& args);    // StatsCommand.cpp

} // namespace acmesim
