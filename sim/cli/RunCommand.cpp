#include "sim/cli/RunCommand.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "models/checkpoint/CheckpointMath.hpp"
#include "sim/cli/Commands.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/engine/Simulation.hpp"
#include "sim/report/Reports.hpp"

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

std::string describe(const TimeStats& s)
{
  if (s.count == 0)
    return "no GPU job ran";
  return fmt::format("mean {:.1f} s, p50 {:.1f}, p95 {:.1f}, p99 {:.1f}", *s.mean, *s.p50, *s.p95, *s.p99);
}

// Waiting and completion per job type: the view the Acme paper takes (Fig. 6).
void print_by_type(const RunSummary& summary)
{
  if (summary.wait_s.by_type.empty())
    return;
  std::cout << fmt::format("{:<12} {:>8} {:>12} {:>12} {:>12} {:>12}\n", "GPU jobs", "count", "wait mean", "wait p95",
                           "JCT mean", "JCT p95");
  for (const auto& [type, wait] : summary.wait_s.by_type) {
    const TimeStats& jct = summary.jct_s.by_type.at(type);
    std::cout << fmt::format("  {:<10} {:>8} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f}\n", to_string(type), wait.count,
                             *wait.mean, *wait.p95, *jct.mean, *jct.p95);
  }
}

// Lost GPU-hours by cause and effective training time, when the run had failures or checkpoints.
void print_faults(const RunSummary& summary)
{
  const StateHours& lost = summary.lost_gpu_hours;
  const FailureSummary& failures = summary.failures;
  if (lost.total <= 0 && failures.applied == 0)
    return;
  std::cout << fmt::format("failures     {} applied, {} job interruptions, {} escalations, {} spare swaps, {} jobs "
                           "given up\n",
                           failures.applied, failures.job_interruptions, failures.escalations, failures.spare_swaps,
                           failures.jobs_given_up);
  std::vector<std::string> causes; // the states the run reported
  for (GpuState s : LOST_GPU_STATES)
    if (const auto hours = lost.by_state.find(s); hours != lost.by_state.end())
      causes.push_back(fmt::format("{} {:.0f}", state_label(s), hours->second));
  std::cout << fmt::format("lost GPU-h   {:.0f}: {}\n", lost.total, join_names(causes));
  const EttrStats& ettr = summary.training.ettr;
  if (ettr.count > 0)
    std::cout << fmt::format("pretraining  {} jobs, effective training time ratio mean {:.3f}, lowest {:.3f}, {} "
                             "interruptions\n",
                             ettr.count, *ettr.mean, *ettr.min, summary.training.interruptions);
}

// Per evaluation campaign: makespan and where its trials' GPU time went.
void print_evaluation(const RunSummary& summary)
{
  if (!summary.evaluation)
    return;
  const LatencyStats& feedback = summary.evaluation->feedback_latency_s;
  if (feedback.count > 0) {
    std::cout << fmt::format("evaluation   {} campaigns triggered by checkpoints; feedback latency (checkpoint "
                             "written to all its trials done) mean {:.0f} s, p95 {:.0f} s\n",
                             feedback.count, *feedback.mean, *feedback.p95);
  }
  for (const CampaignSummary& c : summary.evaluation->campaigns) {
    if (!c.makespan_s || c.evaluates)
      continue;
    const TrialGpuHours& h = c.trial_gpu_hours;
    const auto pct = [&h](double v) { return h.total_held > 0 ? 100 * v / h.total_held : 0.0; };
    std::cout << fmt::format("evaluation   campaign {}: {} trials, makespan {:.0f} s; trial GPU time {:.2f} GPU-h: "
                             "{:.1f}% inference, {:.1f}% loading, {:.1f}% waiting for CPU\n",
                             c.campaign, c.trials, *c.makespan_s, h.total_held, pct(h.inference), pct(h.model_load),
                             pct(h.cpu_wait));
  }
}

void print_summary(const RunSummary& summary, const Scenario& scenario, const std::string& out_dir)
{
  const JobCounts& jobs = summary.jobs;
  const StateHours& hours = summary.gpu_hours;
  std::cout << fmt::format("scenario     {} (seed {})\n", summary.scenario_name, summary.seed)
            << fmt::format("cluster      {}: {} nodes, {} GPUs\n", scenario.cluster.name,
                           scenario.cluster.total_nodes(), scenario.cluster.total_gpus())
            << fmt::format("scheduler    {}, placement {}\n", scenario.scheduler.name, scenario.scheduler.placement)
            << fmt::format("jobs         {} ({} GPU, {} CPU-only, {} rejected as larger than any pod)\n", jobs.total,
                           jobs.gpu, jobs.cpu_only, jobs.rejected)
            << fmt::format("makespan     {:.0f} s ({:.2f} days)\n", summary.makespan_s, summary.makespan_s / 86400)
            << "wait (GPU)   " << describe(summary.wait_s.all) << '\n'
            << "JCT (GPU)    " << describe(summary.jct_s.all) << '\n'
            << fmt::format("utilisation  {:.1f}% busy, {:.1f}% allocated\n", 100 * summary.utilisation.mean_gpu_busy,
                           100 * summary.utilisation.mean_gpu_allocated)
            << fmt::format("GPU-hours    {:.0f} busy, {:.0f} stranded, {:.0f} idle, {:.0f} total\n",
                           hours.by_state.at(GpuState::Busy), hours.by_state.at(GpuState::Stranded),
                           hours.by_state.at(GpuState::Idle), hours.total)
            << fmt::format("energy       {:.1f} MWh IT ({:.1f} MWh with PUE {:g}), mean {:.0f} kW; GPUs {:.0f} W on "
                           "average, {:.1f}% of GPU-time not computing\n",
                           summary.energy.it_kwh / 1000, summary.energy.facility_kwh / 1000, summary.energy.pue,
                           summary.energy.mean_it_kw, summary.energy.mean_gpu_w,
                           100 * summary.energy.idle_gpu_time_share);
  print_by_type(summary);
  print_faults(summary);
  print_evaluation(summary);
  // failures.csv is written whenever failures are on (a model, or a recorded list).
  const bool failures = scenario.failures.source != FailureSpec::Source::None;
  std::cout << fmt::format("results      {}/: jobs.csv, summary.json, utilisation.csv{}{}\n", out_dir,
                           failures ? ", failures.csv" : "", scenario.output.timeline ? ", timeline.json" : "");
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

void check_utilisation_bins(const Scenario& scenario, const Workload& workload)
{
  double span = 0;
  for (const Job& job : workload.jobs)
    span = std::max(span, job.submit_s + job.duration_s);
  const double bin = scenario.output.utilisation_bin_s;
  if (span / bin > physical::MAX_UTILISATION_BINS)
    throw InputError(Diagnostic{
        "output.utilisation_bin_s", "output.utilisation_bin_s", format_number(bin),
        fmt::format("the workload spans at least {:.0f} s, which would make more than {:.0f} bins of utilisation.csv; "
                    "expected bins of at least {} s",
                    span, physical::MAX_UTILISATION_BINS, format_number(std::ceil(span / physical::MAX_UTILISATION_BINS)))});
}

void warn_about_checkpoint_intervals(const Scenario& scenario, const Workload& workload)
{
  const CheckpointSpec& spec = scenario.checkpoint;
  if (!spec.enabled || spec.interval_policy != IntervalPolicy::Fixed || spec.interval_steps > 0)
    return;
  std::size_t raised = 0;
  double longest_step = 0;
  int gpus_of_longest = 0;
  for (const Job& job : workload.jobs) {
    if (job.cpu_only() || !spec.covers(job.type))
      continue;
    // The interval the run will use (a fixed one needs no failure rate); above interval_s only
    // when the step rule raised it.
    const double step = checkpoint_interval(spec, job.gpus, 0, 0);
    if (step <= spec.interval_s)
      continue;
    ++raised;
    if (step > longest_step) {
      longest_step = step;
      gpus_of_longest = job.gpus;
    }
  }
  if (raised > 0)
    log_warn(fmt::format("checkpoint.interval_s {} s is shorter than one training step of {} jobs (up to {:.0f} s, "
                         "on {} GPUs): they checkpoint every step instead",
                         format_number(spec.interval_s), raised, longest_step, gpus_of_longest));
}

void check_inputs_apart_from_results(const Scenario& scenario, const std::string& out)
{
  namespace fs = std::filesystem;
  // Each file the scenario reads, with the key that names it.
  static const std::string none;
  const std::pair<const char*, const std::string*> inputs[] = {
      {"workload.trace", scenario.workload.trace ? &scenario.workload.trace->path : &none},
      {"failures.recorded", &scenario.failures.recorded_path},
      {"evaluation.catalogue", &scenario.evaluation.catalogue.source},
      {"scheduler.plugin", &scenario.scheduler.plugin},
      {"scheduler.python", &scenario.scheduler.python},
      {"scenario", &scenario.source},
  };
  std::error_code ec;
  for (const auto& [key, path] : inputs) {
    if (path->empty() || !fs::is_regular_file(*path, ec)) // none, or embedded
      continue;
    for (const std::string_view name : result_file::ALL) {
      const fs::path written = fs::path(out) / name;
      if (fs::exists(written, ec) && fs::equivalent(*path, written, ec))
        throw InputError(Diagnostic{
            "--out", key, *path,
            fmt::format("this run would write its {} over this file, which it reads; copy the file elsewhere or "
                        "choose another --out",
                        name)});
    }
  }
}

void keep_until_exit(std::shared_ptr<const void> owned)
{
  static auto* const kept = new std::vector<std::shared_ptr<const void>>();
  kept->push_back(std::move(owned));
}

int run_scenario(const Scenario& scenario, const Workload& workload, const std::string& out_dir, Verbosity verbosity)
{
  log_info(fmt::format("scenario '{}': {} jobs on {} ({} GPUs), scheduler {}", scenario.name, workload.jobs.size(),
                       scenario.cluster.name, scenario.cluster.total_gpus(), scenario.scheduler.name));
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
  RunOptions options;
  options.engine_logs = verbosity == Verbosity::Verbose;
  if (verbosity != Verbosity::Quiet && isatty(STDERR_FILENO))
    options.progress = progress_printer();
  RunResult result = run_simulation(scenario, workload, options);
  log_debug(result.simgrid_kept_time ? "SimGrid kept time: the run moved data or had the network model on"
                                     : "the run kept time itself: no flows, so nothing for SimGrid to do");
  if (result.run->jobs().rejected_count() > 0)
    log_warn(fmt::format("{} jobs ask for more GPUs than any pod has; they were rejected and are reported as "
                         "REJECTED in jobs.csv",
                         result.run->jobs().rejected_count()));
  const auto write_start = std::chrono::steady_clock::now();
  const RunSummary summary = summarise_run(scenario, workload, result);
  write_results(out_dir, scenario, result, summary);
  const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double wall = std::max(result.wall_seconds, 1e-9);
  log_info(fmt::format("replay: {} jobs in {:.3f} s wall ({:.0f} jobs/s, {:.1f} simulated days per wall second); "
                       "results written in {:.3f} s; peak RSS {:.0f} MB",
                       result.run->jobs().count(), result.wall_seconds,
                       static_cast<double>(result.run->jobs().count()) / wall,
                       result.makespan_s / 86400 / wall, write_s, static_cast<double>(usage.ru_maxrss) / 1024));
  print_summary(summary, scenario, out_dir);
  keep_until_exit(std::move(result.run)); // a record per job
  return EXIT_OK;
}

} // namespace acmesim
