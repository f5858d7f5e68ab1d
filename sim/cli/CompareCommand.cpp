#include "models/common/InputError.hpp"
#include "models/common/Interrupts.hpp"
#include "sim/cli/CommandLine.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/ExperimentCommands.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/cli/ProgressLine.hpp"
#include "sim/cli/RunCommand.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/config/WorkloadLoader.hpp"
#include "sim/experiment/CompareReport.hpp"
#include "sim/experiment/SweepRunner.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/JsonText.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace acmesim {

namespace {

constexpr const char* COMPARE_USAGE = R"(usage: acmesim compare A.yaml B.yaml [options] [--set key=value ...]
       acmesim compare [BASE.yaml] [--set key=value ...] --vs [B.yaml] [--set key=value ...]

Runs A and B on the same seeds, each run in its own process, so that for every seed both see
the same workload and the same failures (common random numbers). Reports, for every metric,
each side's mean, the paired difference B - A and the ratio B / A with confidence intervals
across seeds, and a verdict only where the interval of the difference excludes zero.
Without --vs, --set applies to both sides; with --vs, the --set options before it belong to A
and those after it to B (B's scenario defaults to A's). Results: OUT/compare.json and the runs
in OUT/runs/a/seed-N and OUT/runs/b/seed-N.

)";

struct CompareArgs {
  CompareSide a{"A", "", {}};
  CompareSide b{"B", "", {}};
  std::size_t seeds = 10;
  std::uint64_t first_seed = 1;
  std::size_t jobs = 1;
  double confidence = 0.95;
  std::string out = "results/compare";
  bool quiet = false;
};

std::vector<std::string> strings_of(const po::variables_map& vm, const char* key)
{
  return vm.count(key) ? vm[key].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// Splits the command line at --vs and reads each side. Returns nullopt after printing --help.
std::optional<CompareArgs> parse_compare(const std::vector<std::string>& args)
{
  const auto vs = std::find(args.begin(), args.end(), "--vs");
  const std::vector<std::string> left(args.begin(), vs);
  po::options_description options("compare options");
  options.add_options()("help,h", "show this help")("scenario", po::value<std::vector<std::string>>(), "scenarios")(
      "seeds", po::value<std::string>(), "seeds per side (default 10)")(
      "first-seed", po::value<std::string>(), "seeds are first-seed, first-seed + 1, ... (default 1)")(
      "jobs,j", po::value<std::string>(), "runs at once (default: the number of cores)")(
      "confidence", po::value<double>()->default_value(0.95), "confidence level of the intervals")(
      "out,o", po::value<std::string>()->default_value("results/compare"), "results directory")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a scenario key: key.path=value")(
      "quiet,q", "no progress line");
  const auto parsed = parse_command_line(left, options, {"scenario", 2}, COMPARE_USAGE);
  if (!parsed)
    return std::nullopt;
  const po::variables_map& vm = *parsed;
  CompareArgs c;
  const auto scenarios = strings_of(vm, "scenario");
  if (vs == args.end()) {
    if (scenarios.size() != 2)
      throw UsageError("compare needs two scenarios, or one and --vs with B's overrides");
    c.a.scenario = scenarios[0];
    c.b.scenario = scenarios[1];
    c.a.set = c.b.set = strings_of(vm, "set");
  } else {
    if (scenarios.size() > 1)
      throw UsageError("with --vs, give A's scenario before --vs and B's (if different) after it");
    c.a.scenario = scenarios.empty() ? "" : scenarios[0];
    c.a.set = strings_of(vm, "set");
    po::options_description side("B options");
    side.add_options()("scenario", po::value<std::vector<std::string>>(), "B's scenario")(
        "set", po::value<std::vector<std::string>>()->composing(), "B's overrides");
    po::positional_options_description one;
    one.add("scenario", 1);
    const auto bvm = parse_options(std::vector<std::string>(vs + 1, args.end()), side, one);
    const auto b_scenarios = strings_of(bvm, "scenario");
    c.b.scenario = b_scenarios.empty() ? c.a.scenario : b_scenarios[0];
    c.b.set = strings_of(bvm, "set");
  }
  for (const auto* side : {&c.a, &c.b})
    for (const auto& o : side->set)
      if (o.rfind("seed=", 0) == 0)
        throw UsageError("--set " + o + ": the seeds of a comparison are given by --seeds and --first-seed");
  c.seeds = count_option(vm, "seeds", 10, 1, 100000);
  c.first_seed = count_option(vm, "first-seed", 1, 0, std::numeric_limits<std::uint64_t>::max() - (c.seeds - 1));
  c.jobs = count_option(vm, "jobs", default_parallelism(), 1, 10000);
  c.confidence = vm["confidence"].as<double>();
  c.out = vm["out"].as<std::string>();
  c.quiet = vm.count("quiet") > 0;
  if (!(c.confidence > 0 && c.confidence < 1))
    throw UsageError("--confidence must lie strictly between 0 and 1");
  return c;
}

// Bad input on either side is found here, in a second, before anything runs (exit 2).
void validate_side(const CompareSide& side, std::uint64_t seed)
{
  auto overrides = side.set;
  overrides.push_back("seed=" + std::to_string(seed));
  const Scenario s = load_scenario_or_default(side.scenario, overrides);
  load_workload(s);
}

} // namespace

int cmd_compare(const std::vector<std::string>& args)
{
  const auto parsed = parse_compare(args);
  if (!parsed)
    return EXIT_OK;
  const CompareArgs& c = *parsed;
  validate_side(c.a, c.first_seed);
  validate_side(c.b, c.first_seed);

  std::vector<std::uint64_t> seeds;
  for (std::size_t i = 0; i < c.seeds; ++i)
    seeds.push_back(c.first_seed + i);
  const ResultsDirLock lock = prepare_output_dir(c.out);
  const fs::path out = c.out;
  fs::remove(out / "compare.json"); // a failed comparison must not leave an earlier one looking current
  // Run i is side i % 2 at seed i / 2: both sides advance together, so an interrupted
  // comparison has pairs.
  const auto run_dir = [&](std::size_t i) {
    return out / "runs" / (i % 2 == 0 ? "a" : "b") / fmt::format("seed-{}", seeds[i / 2]);
  };
  for (std::size_t i = 0; i < 2 * seeds.size(); ++i) {
    fs::create_directories(run_dir(i));
    fs::remove(run_dir(i) / "summary.json");
  }
  const std::string exe = current_executable_link();
  ProgressLine progress("compare runs", 2 * seeds.size(), c.quiet);
  std::size_t done = 0, failed = 0;
  run_children(
      2 * seeds.size(), c.jobs,
      [&](std::size_t i) {
        const CompareSide& side = i % 2 == 0 ? c.a : c.b;
        return run_process(exe, side.scenario, side.set, seeds[i / 2], run_dir(i));
      },
      [&](std::size_t i, const ChildExit& exit) {
        write_run_status(run_dir(i), exit);
        failed += exit.ok() ? 0 : 1;
        progress.update(++done, failed);
      });

  stop_if_interrupted(fmt::format("while the comparison ran: no compare.json was written; the runs that finished "
                                  "are in {}/runs/",
                                  out.string()));
  std::vector<std::vector<RunMetric>> a_runs, b_runs;
  bool any_failed = false;
  for (std::size_t i = 0; i < 2 * seeds.size(); ++i) {
    std::string error = run_error(run_dir(i));
    if (error.empty()) {
      try {
        (i % 2 == 0 ? a_runs : b_runs).push_back(read_run_metrics(run_dir(i)));
      } catch (const std::runtime_error& e) {
        error = e.what();
      }
    }
    if (!error.empty()) {
      std::cerr << fmt::format("failed run: {} seed {} ({}): {}\n", i % 2 == 0 ? "A" : "B", seeds[i / 2],
                               run_dir(i).string(), error);
      any_failed = true;
    }
  }
  if (any_failed) {
    std::cerr << "no comparison written: every seed needs a finished run on both sides\n";
    return EXIT_INTERNAL;
  }
  const auto metrics = compare_metrics(a_runs, b_runs, c.confidence);
  AtomicFile json(out / "compare.json");
  write_json(json.stream(), compare_json(c.a, c.b, seeds, c.confidence, metrics));
  json.commit();
  std::cout << compare_table(c.a, c.b, seeds.size(), c.confidence, metrics)
            << fmt::format("results      {}/compare.json, runs in {}/runs/\n", out.string(), out.string());
  return EXIT_OK;
}

} // namespace acmesim
