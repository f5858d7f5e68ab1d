#pragma once
// Result files of a run: jobs.csv (one row per job), summary.json (aggregates, the ledger,
// the resolved scenario, seed and program version), utilisation.csv (GPUs per state over time)
// and, when asked for, timeline.json (docs/outputs.md). All are byte-identical for the same
// inputs and seed: nothing time- or machine-dependent goes into them.
#include "sim/config/Scenario.hpp"
#include "sim/report/EnergySummary.hpp"
#include "sim/report/RunSummary.hpp"
#include "sim/run/RunResult.hpp"

#include <filesystem>
#include <ostream>

namespace acmesim {

// One row per job of the run: the workload's and the trials it added.
// With the network model on, a last column gives each job's slowdown.
void write_jobs_csv(std::ostream& out, const RunResult& result, bool network_on);
// What summary.json holds (RunSummary.hpp), built once from the finished run.
RunSummary summarise_run(const Scenario& scenario, const Workload& workload, const RunResult& result);
Json scenario_to_json(const Scenario& scenario);
// Mean GPUs per state in each bin of the ledger's series (header only without a series).
// The states the run reports (state_reported), one column each.
// With the IT power of each bin (Energy.hpp), in kW, given a power model (none on a CPU machine).
void write_utilisation_csv(std::ostream& out, const Ledger& ledger, bool network_on, const PowerSpec* power,
                           const Servers& servers);
// Chrome trace events; the run must have recorded its timeline (output.timeline).
void write_timeline_json(std::ostream& out, const Scenario& scenario, const RunResult& result);

// Why a run stalled (RunResult::stalled): the scheduler, the time, how many jobs it never started
// and the first of them with their sizes; empty for a run that finished.
std::string describe_stall(const Scenario& scenario, const RunResult& result);

// Writes jobs.csv, failures.csv (with failures), utilisation.csv, timeline.json (if asked for),
// then `summary` as summary.json into `dir` (created if needed), each atomically, after removing
// every result file of an earlier run; summary.json, written last, means the set is complete. A
// run that stalled gets INCOMPLETE (describe_stall) instead of summary.json: its files are partial.
// Throws WriteError (AtomicFile.hpp) when a file cannot be written, having removed the others.
void write_results(const std::filesystem::path& dir, const Scenario& scenario, const RunResult& result,
                   const RunSummary& summary);

} // namespace acmesim
