// Writes the result files of a run (Reports.hpp: write_results).
#include "sim/report/EnergySummary.hpp"
#include "sim/report/Reports.hpp"

#include "models/failure/RecordedFailures.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/JsonText.hpp"
#include "sim/report/ResultsDir.hpp"

#include <fmt/format.h>

#include <algorithm>

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
    write_utilisation_csv(out, result.run->ledger(), scenario.network.on(),
                          scenario.cluster.processors == ProcessorKind::Gpu ? &scenario.power : nullptr,
                          servers_of(*result.topology));
  });
  if (scenario.output.timeline)
    write_file(dir, result_file::TIMELINE, [&](std::ostream& out) { write_timeline_json(out, scenario, result); });
  if (!result.stalled.empty()) {
    write_file(dir, result_file::INCOMPLETE,
               [&](std::ostream& out) { out << describe_stall(scenario, result) << '\n'; });
    return;
  }
  // Last: its presence says the set is whole. Paths in the scenario may not be UTF-8: such bytes
  // are replaced rather than failing after the run.
  write_file(dir, result_file::SUMMARY, [&](std::ostream& out) {
    write_json(out, Json(summary));
  });
  std::filesystem::remove(dir / result_file::INCOMPLETE);
}

// The stalled jobs a message names, largest first.
constexpr std::size_t STALLED_NAMED = 10;

} // namespace

std::string describe_stall(const Scenario& scenario, const RunResult& result)
{
  if (result.stalled.empty())
    return {};
  const JobTable& jobs = result.run->jobs();
  std::vector<JobId> named = result.stalled;
  long long gpus = 0;
  for (const JobId id : named)
    gpus += jobs.job(id).gpus;
  std::stable_sort(named.begin(), named.end(),
                   [&](JobId a, JobId b) { return jobs.job(a).gpus > jobs.job(b).gpus; });
  std::string list;
  for (std::size_t i = 0; i < std::min(named.size(), STALLED_NAMED); ++i) {
    const Job& j = jobs.job(named[i]);
    list += fmt::format("{}{} ({} GPUs, {}, submitted at {:.0f} s)", i > 0 ? ", " : "", j.name, j.gpus,
                        to_string(j.type), j.submit_s);
  }
  if (named.size() > STALLED_NAMED)
    list += fmt::format(", and {} more", named.size() - STALLED_NAMED);
  return fmt::format("scheduler '{}' stalled: at {:.3f} s nothing was left to happen but {} queued job{} ({} GPUs in "
                     "all), which it never started: {}. A policy must start every job that fits its pod when the pod "
                     "is empty, or ask to be woken (wake_at) until it does. jobs.csv marks them STALLED; the other "
                     "files are partial, and there is no summary.json.",
                     scenario.scheduler.name, result.run->now(), named.size(), named.size() == 1 ? "" : "s", gpus,
                     list);
}

void write_results(const std::filesystem::path& dir, const Scenario& scenario, const RunResult& result,
                   const RunSummary& summary)
{
  std::filesystem::create_directories(dir);
  // No file of an earlier run may pass for this run's, nor this run's files for a whole set if
  // one of them cannot be written.
  clear_results(dir);
  mark_incomplete(dir, run_in_progress_note());
  try {
    write_all(dir, scenario, result, summary);
  } catch (const WriteError& e) {
    clear_results(dir);
    throw WriteError(std::string(e.what()) + "; no results were left in " + dir.string());
  }
}

} // namespace acmesim
