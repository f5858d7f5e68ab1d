#include "sim/cli/RunCommand.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Interrupts.hpp"
#include "models/common/Text.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/engine/Simulation.hpp"
#include "sim/run/Ledger.hpp"
#include "sim/report/Reports.hpp"
#include "sim/report/TerminalSummary.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <ranges>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <vector>

namespace acmesim {

namespace {

// Progress line on stderr, only when stderr is a terminal (never in logs or CI output).
std::function<void(double, std::size_t, std::size_t)> progress_printer()
{
  const auto start = std::chrono::steady_clock::now();
  return [start](double sim_s, std::size_t done, std::size_t total) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = wall > 0 ? static_cast<double>(done) / wall : 0;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
    std::cerr << fmt::format("\r  day {:.1f}: {}/{} jobs ended, {:.0f} jobs/s, ETA {:.0f} s   ", sim_s / 86400,
                             done, total, rate, eta)
              << (done == total ? "\n" : "") << std::flush;
  };
}

} // namespace

ResultsDirLock prepare_output_dir(const std::string& out)
{
  namespace fs = std::filesystem;
  const auto fail = [&](const std::string& why) { throw InputError(Diagnostic{"--out", "", out, why}); };
  if (out.empty())
    fail("expected a directory path");
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    fail("exists and is not a directory");
  fs::create_directories(out, ec);
  if (ec)
    fail("cannot create the directory: " + ec.message());
  if (::access(out.c_str(), W_OK) != 0)
    fail("the directory is not writable");
  try {
    return ResultsDirLock(out);
  } catch (const std::runtime_error& e) {
    fail(e.what());
  }
  throw std::logic_error("unreachable");
}

void keep_until_exit(std::shared_ptr<const void> owned)
{
  static auto* const kept = new std::vector<std::shared_ptr<const void>>();
  kept->push_back(std::move(owned));
}

namespace {

// The run, whose utilisation series is bounded: the check before the run knows only the
// workload's span, and queueing can make the run far longer, so bins too narrow for it stop the
// run here as bad input rather than filling memory.
RunResult run_with_bounded_series(const Scenario& scenario, const Workload& workload, const RunOptions& options)
{
  try {
    return run_simulation(scenario, workload, options);
  } catch (const SeriesLimitReached& e) {
    throw InputError(Diagnostic{
        "output.utilisation_bin_s", "output.utilisation_bin_s", format_number(e.bin_s),
        fmt::format("the run reached {:.0f} s, past the {} bins utilisation.csv may have (queueing made it longer "
                    "than the workload's span); nothing was written; expected bins of at least {} s for a run this "
                    "long",
                    e.at_s, e.max_bins, format_number(std::ceil(e.at_s / static_cast<double>(e.max_bins))))});
  }
}

} // namespace

int run_scenario(const Scenario& scenario, const Workload& workload, const std::string& out_dir, Verbosity verbosity)
{
  log_info(fmt::format("scenario '{}': {} jobs on {} ({} {}s), scheduler {}", scenario.name, workload.jobs.size(),
                       scenario.cluster.name, scenario.cluster.total_gpus(),
                       processor_word(scenario.cluster.processors), scenario.scheduler.name));
  for (const auto& pod : scenario.cluster.pods)
    log_debug(fmt::format("pod '{}': {} nodes x {} GPUs, {} compute + {} storage NICs, {} nodes per leaf switch, "
                          "{} spines",
                          pod.name, pod.nodes, pod.gpus_per_node, pod.compute_nics, pod.storage_nics,
                          derived_nodes_per_leaf(pod), derived_uplinks_per_leaf(pod)));
  for (const auto& [name, value] : scenario.scheduler.params)
    log_debug(fmt::format("scheduler parameter {} = {}", name, value));
  if (workload.skipped_rows > 0)
    log_warn(fmt::format("{} bad trace rows skipped (workload.on_bad_row=skip)", workload.skipped_rows));
  if (const UnknownDrops& d = workload.dropped_unknown; d.jobs > 0)
    log_info(fmt::format("{} SWF jobs of unknown fields dropped (workload.on_unknown=drop): submit time {}, run time {}, "
                         "size {}",
                         d.jobs, d.submit_time, d.run_time, d.size));
  if (scenario.workload.estimates == EstimateModel::Requested) {
    const RequestedTimes r = requested_times(workload.jobs);
    log_info(fmt::format("estimates: the requested times of {} jobs ({} ran longer than requested, by up to {:.0f} s: "
                         "their recorded run times are replayed, no job is killed at its request); {} jobs record "
                         "none and are estimated by their run time",
                         r.recorded, r.overran, r.max_overrun_s, r.none));
  }
  RunOptions options;
  options.engine_logs = verbosity == Verbosity::Verbose;
  if (verbosity != Verbosity::Quiet && isatty(STDERR_FILENO))
    options.progress = progress_printer();
  RunResult result = run_with_bounded_series(scenario, workload, options);
  stop_if_interrupted(fmt::format("after the run ended at simulated time {:.0f} s, before its results were written",
                                  result.makespan_s));
  log_debug(result.simgrid_kept_time ? "SimGrid kept time: the run moved data to or from storage"
                                     : "the run kept time itself: no storage flows, so nothing for SimGrid to share");
  if (result.run->jobs().rejected_count() > 0)
    log_warn(fmt::format("{} jobs ask for more GPUs than any pod has; they were rejected and are reported as "
                         "REJECTED in jobs.csv",
                         result.run->jobs().rejected_count()));
  const auto write_start = std::chrono::steady_clock::now();
  const RunSummary summary = summarise_run(scenario, workload, result);
  write_results(out_dir, scenario, result, summary);
  stop_if_interrupted("while the run's results were written");
  const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double wall = std::max(result.wall_seconds, 1e-9);
  log_info(fmt::format("replay: {} jobs in {:.3f} s wall ({:.0f} jobs/s, {:.1f} simulated days per wall second); "
                       "results written in {:.3f} s; peak RSS {:.0f} MB",
                       result.run->jobs().count(), result.wall_seconds,
                       static_cast<double>(result.run->jobs().count()) / wall,
                       result.makespan_s / 86400 / wall, write_s, static_cast<double>(usage.ru_maxrss) / 1024));
  if (!result.stalled.empty())
    throw RunStalled(describe_stall(scenario, result) + "\npartial results are in " + out_dir +
                     "/ (INCOMPLETE says why)");
  print_summary(std::cout, summary, scenario, out_dir);
  keep_until_exit(std::move(result.run)); // a record per job
  return EXIT_OK;
}

} // namespace acmesim
