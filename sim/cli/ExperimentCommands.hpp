#pragma once
// Commands that run or read many simulations: compare, sweep, plan, plot. Each simulation runs in its
// own `acmesim run` process (docs/design.md, principle 10); these commands only orchestrate and read
// the results those processes write.
#include <string>
#include <vector>

namespace acmesim {

int cmd_compare(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_plan(const std::vector<std::string>& args);
// The body of one Slurm array task of `sweep --backend slurm`; not meant to be typed.
int cmd_sweep_task(const std::vector<std::string>& args);
int cmd_plot(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);

} // namespace acmesim
