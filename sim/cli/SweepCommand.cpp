#include "models/common/InputError.hpp"
#include "models/common/Interrupts.hpp"
#include "sim/cli/CommandLine.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/ExperimentBackend.hpp"
#include "sim/cli/ExperimentCommands.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/cli/ProgressLine.hpp"
#include "sim/cli/RunCommand.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/experiment/SlurmBackend.hpp"
#include "sim/experiment/SweepRunner.hpp"
#include "sim/experiment/SweepSpec.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <iostream>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace acmesim {

namespace {

constexpr const char* SWEEP_USAGE = R"(usage: acmesim sweep SWEEP.yaml [options]

Runs the base scenario of SWEEP.yaml at every point of its grid (or list) of overrides and seeds,
each point in its own `acmesim run` process, and gathers every point's metrics into
OUT/results.csv (one row per point and metric) and OUT/points.csv (one row per point, with the
error of a failed one). A failed point does not stop the others; the exit code is then 1.
See docs/experiments.md for the sweep file.

)";

// The base scenario with the common overrides must load, and so must at least one point (its
// overrides together: one swept key may depend on another, as a scheduler's parameter on its
// name): when none does (a misspelt swept key, say), every point would fail, and the sweep is
// refused before any runs. A point's own bad value is checked by its own run and fails that point
// only. Errors are told at their place in the sweep file.
void check_sweep_points(const SweepSpec& spec)
{
  try {
    load_scenario_or_default(spec.scenario, spec.set);
    std::optional<InputError> first;
    for (const SweepPoint& point : spec.points) {
      try {
        load_scenario_or_default(spec.scenario, spec.overrides_of(point));
        return;
      } catch (const InputError& e) {
        if (!first)
          first = e;
      }
    }
    if (!first)
      return; // no points
    std::vector<Diagnostic> all = first->diagnostics();
    // Said of the swept key the first point's error is about, where the sweep file names it.
    const auto is_swept = [&](const Diagnostic& d) {
      return std::find(spec.parameters.begin(), spec.parameters.end(), d.key) != spec.parameters.end();
    };
    const auto swept = std::find_if(all.begin(), all.end(), is_swept);
    all.push_back(swept == all.end()
                      ? Diagnostic{spec.source, "", "",
                                   "no point of the sweep loads with the base scenario, so every point would fail; "
                                   "the sweep runs none"}
                      : Diagnostic{spec.key_where.at(swept->key), swept->key, "",
                                   "no value of this swept key loads with the base scenario in any point, so every "
                                   "point would fail; the sweep runs none"});
    throw InputError(std::move(all));
  } catch (const InputError& e) {
    throw located_in_file(e, spec.key_where);
  }
}

} // namespace

int cmd_sweep(const std::vector<std::string>& args)
{
  po::options_description options("sweep options");
  options.add_options()("help,h", "show this help")("sweep", po::value<std::string>(), "sweep file");
  add_backend_options(options);
  const auto parsed = parse_command_line(args, options, {"sweep", 1, "sweep needs a sweep file"}, SWEEP_USAGE);
  if (!parsed)
    return EXIT_OK;
  const po::variables_map& vm = *parsed;
  const SweepSpec spec = load_sweep_file(vm["sweep"].as<std::string>());
  check_sweep_points(spec);
  const ExperimentBackend backend = read_backend_options(vm, spec.slurm);
  const ExperimentDir dir = experiment_output_dir(vm, spec.out, spec.name);
  const fs::path& out = dir.path;

  std::vector<fs::path> pending;
  std::size_t skipped = 0;
  for (const auto& point : spec.points) {
    if (backend.resume && point_finished(out, spec, point)) {
      ++skipped;
      continue;
    }
    prepare_point(out, spec, point);
    pending.push_back(point_dir(out, point));
  }
  std::cerr << fmt::format("sweep '{}': {} points, {} to run{}; results in {}\n", spec.name, spec.points.size(),
                           pending.size(), skipped ? fmt::format(", {} already finished", skipped) : "",
                           out.string());
  ProgressLine progress("sweep points", pending.size(), backend.quiet);
  const SweepProgress report = [&](std::size_t done, std::size_t failed) { progress.update(done, failed); };
  run_prepared(pending, out, backend, "acmesim-" + spec.name, report);

  const SweepOutcome outcome = gather_sweep(out, spec);
  std::cout << fmt::format("sweep '{}': {} of {} points finished{}; {}/results.csv, {}/points.csv\n", spec.name,
                           outcome.finished, spec.points.size(),
                           skipped ? fmt::format(" ({} from an earlier sweep)", skipped) : "", out.string(),
                           out.string());
  for (const PointFailure& f : outcome.failures)
    std::cerr << fmt::format("{} point {}: {}\n", f.interrupted ? "interrupted" : "failed", f.point, f.error);
  stop_if_interrupted(fmt::format("while sweep '{}' ran: {} points were interrupted or not started (points.csv); "
                                  "the same command with --resume runs them and keeps the {} finished",
                                  spec.name, std::ranges::count_if(outcome.failures, &PointFailure::interrupted),
                                  outcome.finished));
  return outcome.failures.empty() ? EXIT_OK : EXIT_INTERNAL;
}

int cmd_sweep_task(const std::vector<std::string>& args)
{
  if (args.size() != 2)
    throw UsageError("sweep-task (run by a Slurm array task) takes a tasks file and a task index");
  std::size_t index = 0;
  try {
    index = std::stoul(args[1]);
  } catch (const std::exception&) {
    throw UsageError("sweep-task: the task index must be a number, not '" + args[1] + "'");
  }
  return run_sweep_task(args[0], index, current_executable_link()) == 0 ? EXIT_OK : EXIT_INTERNAL;
}

} // namespace acmesim
