#pragma once
// Checks of a scenario against its workload, made before anything runs (the loader checks the
// scenario alone: ScenarioLoader.hpp).
#include "models/workload/Job.hpp"
#include "sim/config/Scenario.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace acmesim {

// Refuses (InputError) bins of utilisation.csv so narrow that the workload's span (each job's
// submission plus its run time, at least) would need more than physical::MAX_UTILISATION_BINS.
void check_utilisation_bins(const Scenario& scenario, const Workload& workload);

// What to warn of when a fixed checkpoint.interval_s is shorter than one training step of some
// checkpointed job: its interval becomes one step (a checkpoint cannot come within a step).
std::optional<std::string> checkpoint_interval_warning(const Scenario& scenario, const Workload& workload);

// Every file the scenario reads (its trace, recorded failures, catalogue, plugin, the scenario
// itself) as (the key that names it, its path as resolved); none of the embedded ones.
std::vector<std::pair<std::string, std::string>> scenario_input_files(const Scenario& scenario);

} // namespace acmesim
