#include "sim/cli/RunCommand.hpp"

#include "models/common/InputError.hpp"
#include "sim/cli/Commands.hpp"
#include "sim/engine/Simulation.hpp"
#include "sim/report/Reports.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

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

std::string describe(const Json& s)
{
  if (s["count"].get<std::size_t>() == 0)
    return "no GPU job ran";
  return fmt::format("mean {:.1f} s, p50 {:.1f}, p95 {:.1f}, p99 {:.1f}", s["mean"].get<double>(),
                     s["p50"].get<double>(), s["p95"].get<double>(), s["p99"].get<double>());
}

// Waiting and completion per job type: the view the Acme paper takes (Fig. 6).
void print_by_type(const Json& summary)
{
  const auto& waits = summary["wait_s"]["by_type"];
  const auto& jcts = summary["jct_s"]["by_type"];
  if (waits.empty())
    return;
  std::cout << fmt::format("{:<12} {:>8} {:>12} {:>12} {:>12} {:>12}\n", "GPU jobs", "count", "wait mean", "wait p95",
                           "JCT mean", "JCT p95");
  for (const auto& [type, wait] : waits.items()) {
    const auto& jct = jcts[type];
    std::cout << fmt::format("  {:<10} {:>8} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f}\n", type,
                             wait["count"].get<std::size_t>(), wait["mean"].get<double>(), wait["p95"].get<double>(),
                             jct["mean"].get<double>(), jct["p95"].get<double>());
  }
}

// Lost GPU-hours by cause and effective training time, when the run had failures or checkpoints.
void print_faults(const Json& summary)
{
  const auto& lost = summary["lost_gpu_hours"];
  const auto& failures = summary["failures"];
  if (lost["total"].get<double>() <= 0 && failures["applied"].get<std::size_t>() == 0)
    return;
  std::cout << fmt::format("failures     {} applied, {} job interruptions, {} escalations, {} spare swaps, {} jobs "
                           "given up\n",
                           failures["applied"].get<std::size_t>(), failures["job_interruptions"].get<std::size_t>(),
                           failures["escalations"].get<std::size_t>(), failures["spare_swaps"].get<std::size_t>(),
                           failures["jobs_given_up"].get<std::size_t>());
  std::cout << fmt::format("lost GPU-h   {:.0f}: lost work {:.0f}, checkpoint {:.0f}, detection {:.0f}, waiting for "
                           "a person {:.0f}, restart {:.0f}, nodes down {:.0f}\n",
                           lost["total"].get<double>(), lost["lost_work"].get<double>(),
                           lost["checkpoint"].get<double>(), lost["detection"].get<double>(),
                           lost["waiting_for_person"].get<double>(), lost["restart"].get<double>(),
                           lost["down"].get<double>());
  const auto& ettr = summary["training"]["ettr"];
  if (ettr["count"].get<std::size_t>() > 0)
    std::cout << fmt::format("pretraining  {} jobs, effective training time ratio mean {:.3f}, lowest {:.3f}, {} "
                             "interruptions\n",
                             ettr["count"].get<std::size_t>(), ettr["mean"].get<double>(), ettr["min"].get<double>(),
                             summary["training"]["interruptions"].get<std::size_t>());
}

// Per evaluation campaign: makespan and where its trials' GPU time went.
void print_evaluation(const Json& summary)
{
  const auto& evaluation = summary["evaluation"];
  if (evaluation.is_null())
    return;
  const auto& feedback = evaluation["feedback_latency_s"];
  if (feedback["count"].get<std::size_t>() > 0) {
    std::cout << fmt::format("evaluation   {} campaigns triggered by checkpoints; feedback latency (checkpoint "
                             "written to all its trials done) mean {:.0f} s, p95 {:.0f} s\n",
                             feedback["count"].get<std::size_t>(), feedback["mean"].get<double>(),
                             feedback["p95"].get<double>());
  }
  for (const auto& c : evaluation["campaigns"]) {
    if (c["makespan_s"].is_null() || c.contains("evaluates"))
      continue;
    const auto& h = c["trial_gpu_hours"];
    const double held = h["total_held"].get<double>();
    const auto pct = [held](double v) { return held > 0 ? 100 * v / held : 0.0; };
    std::cout << fmt::format("evaluation   campaign {}: {} trials, makespan {:.0f} s; trial GPU time {:.2f} GPU-h: "
                             "{:.1f}% inference, {:.1f}% loading, {:.1f}% waiting for CPU\n",
                             c["campaign"].get<std::size_t>(), c["trials"].get<std::size_t>(),
                             c["makespan_s"].get<double>(), held, pct(h["inference"].get<double>()),
                             pct(h["model_load"].get<double>()), pct(h["cpu_wait"].get<double>()));
  }
}

void print_summary(const Json& summary, const std::string& out_dir)
{
  const auto& jobs = summary["jobs"];
  const auto& hours = summary["gpu_hours"];
  const auto& scenario = summary["scenario"];
  int nodes = 0, gpus = 0;
  for (const auto& pod : scenario["cluster"]["pods"]) {
    nodes += pod["nodes"].get<int>();
    gpus += pod["nodes"].get<int>() * pod["gpus_per_node"].get<int>();
  }
  const double makespan = summary["makespan_s"].get<double>();
  std::cout << fmt::format("scenario     {} (seed {})\n", summary["scenario_name"].get<std::string>(),
                           summary["seed"].get<std::uint64_t>())
            << fmt::format("cluster      {}: {} nodes, {} GPUs\n", scenario["cluster"]["name"].get<std::string>(),
                           nodes, gpus)
            << fmt::format("scheduler    {}, placement {}\n", scenario["scheduler"]["name"].get<std::string>(),
                           scenario["scheduler"]["placement"].get<std::string>())
            << fmt::format("jobs         {} ({} GPU, {} CPU-only, {} rejected as larger than any pod)\n",
                           jobs["total"].get<std::size_t>(), jobs["gpu"].get<std::size_t>(),
                           jobs["cpu_only"].get<std::size_t>(), jobs["rejected"].get<std::size_t>())
            << fmt::format("makespan     {:.0f} s ({:.2f} days)\n", makespan, makespan / 86400)
            << "wait (GPU)   " << describe(summary["wait_s"]["all"]) << '\n'
            << "JCT (GPU)    " << describe(summary["jct_s"]["all"]) << '\n'
            << fmt::format("utilisation  {:.1f}% busy, {:.1f}% allocated\n",
                           100 * summary["utilisation"]["mean_gpu_busy"].get<double>(),
                           100 * summary["utilisation"]["mean_gpu_allocated"].get<double>())
            << fmt::format("GPU-hours    {:.0f} busy, {:.0f} stranded, {:.0f} idle, {:.0f} total\n",
                           hours["busy"].get<double>(), hours["stranded"].get<double>(),
                           hours["idle"].get<double>(), hours["total"].get<double>());
  print_by_type(summary);
  print_faults(summary);
  print_evaluation(summary);
  // failures.csv is written whenever failures are on (a model, or a recorded list: no "model").
  const bool failures = summary["scenario"]["failures"].value("model", std::string("recorded")) != "none";
  std::cout << fmt::format("results      {}/: jobs.csv, summary.json, utilisation.csv{}{}\n", out_dir,
                           failures ? ", failures.csv" : "",
                           summary["scenario"]["output"]["timeline"].get<bool>() ? ", timeline.json" : "");
}

} // namespace

void prepare_output_dir(const std::string& out)
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
  RunOptions options;
  options.engine_logs = verbosity == Verbosity::Verbose;
  if (verbosity != Verbosity::Quiet && isatty(STDERR_FILENO))
    options.progress = progress_printer();
  const RunResult result = run_simulation(scenario, workload, options);
  if (result.run->jobs().rejected_count() > 0)
    log_warn(fmt::format("{} jobs ask for more GPUs than any pod has; they were rejected and are reported as "
                         "REJECTED in jobs.csv",
                         result.run->jobs().rejected_count()));
  const auto write_start = std::chrono::steady_clock::now();
  write_results(out_dir, scenario, workload, result);
  const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double wall = std::max(result.wall_seconds, 1e-9);
  log_info(fmt::format("replay: {} jobs in {:.3f} s wall ({:.0f} jobs/s, {:.1f} simulated days per wall second); "
                       "results written in {:.3f} s; peak RSS {:.0f} MB",
                       result.run->jobs().count(), result.wall_seconds,
                       static_cast<double>(result.run->jobs().count()) / wall,
                       result.makespan_s / 86400 / wall, write_s, static_cast<double>(usage.ru_maxrss) / 1024));
  print_summary(make_summary(scenario, workload, result), out_dir);
  return EXIT_OK;
}

} // namespace acmesim
