// Writes the result files of a run (Reports.hpp: write_results).
#include "sim/report/Energy.hpp"
#include "sim/report/Reports.hpp"

#include "models/failure/RecordedFailures.hpp"
#include "sim/report/AtomicFile.hpp"

namespace acmesim {

void write_results(const std::filesystem::path& dir, const Scenario& scenario, const RunResult& result,
                   const RunSummary& summary)
{
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / "summary.json");
  {
    AtomicFile jobs(dir / "jobs.csv");
    write_jobs_csv(jobs.stream(), result, scenario.network.on());
    jobs.commit();
  }
  // The failures that took effect, in the recorded-list format: `failures: {recorded: ...}`
  // replays them exactly, under this or another policy.
  std::filesystem::remove(dir / "failures.csv");
  if (scenario.failures.source != FailureSpec::Source::None) {
    AtomicFile failures(dir / "failures.csv");
    write_failure_list(failures.stream(), result.run->statistics().applied_failures(), *result.topology);
    failures.commit();
  }
  {
    AtomicFile utilisation(dir / "utilisation.csv");
    write_utilisation_csv(utilisation.stream(), result.run->ledger(), scenario.network.on(), scenario.power,
                          servers_of(*result.topology));
    utilisation.commit();
  }
  // A timeline of an earlier run must not pass for this run's.
  std::filesystem::remove(dir / "timeline.json");
  if (scenario.output.timeline) {
    AtomicFile timeline(dir / "timeline.json");
    write_timeline_json(timeline.stream(), scenario, result);
    timeline.commit();
  }
  AtomicFile file(dir / "summary.json");
  // Paths in the scenario may not be UTF-8: replace such bytes rather than fail after the run.
  file.stream() << Json(summary).dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
  file.commit();
}

} // namespace acmesim
