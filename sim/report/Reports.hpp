#pragma once
// Result files of a run: jobs.csv (one row per job) and summary.json (aggregates, the ledger,
// the resolved scenario, seed and program version). Both are byte-identical for the same
// inputs and seed: nothing time- or machine-dependent goes into them.
#include "sim/config/Scenario.hpp"
#include "sim/engine/Simulation.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

namespace acmesim {

using Json = nlohmann::ordered_json;

// One row per job of the run: the workload's and the trials it added.
void write_jobs_csv(std::ostream& out, const RunResult& result);
Json make_summary(const Scenario& scenario, const Workload& workload, const RunResult& result);
Json scenario_to_json(const Scenario& scenario);

// Writes jobs.csv then summary.json into `dir` (created if needed), each atomically; a stale
// summary.json is removed first, so summary.json present means the set is complete.
void write_results(const std::filesystem::path& dir, const Scenario& scenario, const Workload& workload,
                   const RunResult& result);

} // namespace acmesim
