// Writes the result files of a run (Reports.hpp: write_results).
#include "sim/report/EnergySummary.hpp"
#include "sim/report/Reports.hpp"

#include "models/failure/RecordedFailures.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/JsonText.hpp"
#include "sim/report/ResultsDir.hpp"

namespace acmesim {

namespace {

template <typename Write>
void write_file(const std::filesystem::path& dir, std::string_view name, Write&& write)
{
  AtomicFile file(dir / name);
  write(file.stream());
  file.commit();
}

void write_all(const std::filesystem::path& dir, const Scenario& scenario, const RunResult& result,
               const RunSummary& summary)
{
  write_file(dir, result_file::JOBS, [&](std::ostream& out) { write_jobs_csv(out, result, scenario.network.on()); });
  // The failures that took effect, in the recorded-list format: `failures: {recorded: ...}`
  // replays them exactly, under this or another policy.
  if (scenario.failures.source != FailureSpec::Source::None)
    write_file(dir, result_file::FAILURES, [&](std::ostream& out) {
      write_failure_list(out, result.run->statistics().applied_failures(), *result.topology);
    });
  write_file(dir, result_file::UTILISATION, [&](std::ostream& out) {
    write_utilisation_csv(out, result.run->ledger(), scenario.network.on(), scenario.power,
                          servers_of(*result.topology));
  });
  if (scenario.output.timeline)
    write_file(dir, result_file::TIMELINE, [&](std::ostream& out) { write_timeline_json(out, scenario, result); });
  // Last: its presence says the set is whole. Paths in the scenario may not be UTF-8: such bytes
  // are replaced rather than failing after the run.
  write_file(dir, result_file::SUMMARY, [&](std::ostream& out) {
    write_json(out, Json(summary));
  });
}

} // namespace

void write_results(const std::filesystem::path& dir, const Scenario& scenario, const RunResult& result,
                   const RunSummary& summary)
{
  std::filesystem::create_directories(dir);
  // No file of an earlier run may pass for this run's, nor this run's files for a whole set if
  // one of them cannot be written.
  clear_results(dir);
  try {
    write_all(dir, scenario, result, summary);
  } catch (const WriteError& e) {
    clear_results(dir);
    throw WriteError(std::string(e.what()) + "; no results were left in " + dir.string());
  }
}

} // namespace acmesim
