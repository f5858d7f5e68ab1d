#include "sim/cli/Commands.hpp"

#include "acmesim/Version.hpp"
#include "models/common/InputError.hpp"
#include "models/common/Interrupts.hpp"
#include "models/common/Text.hpp"
#include "sim/cli/CollectiveCommand.hpp"
#include "sim/cli/ExperimentCommands.hpp"
#include "sim/cli/Logging.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/cli/RunCommand.hpp"
#include "sim/cli/WorkloadCommand.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/KeyReference.hpp"
#include "sim/config/ScenarioChecks.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/config/WorkloadLoader.hpp"
#include "sim/plugins/CheckedScheduler.hpp"
#include "sim/policies/Registries.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/ResultsDir.hpp"
#include "sim/report/RunMetrics.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

namespace po = boost::program_options;

namespace acmesim {

namespace {

constexpr const char* USAGE = R"(acmesim: discrete-event simulator of the GPU datacenters that develop LLMs

usage:
  acmesim run [SCENARIO.yaml] [--out DIR] [--seed N] [--set key.path=value ...] [--timeline] [--quiet|--verbose]
  acmesim validate SCENARIO.yaml [--set key.path=value ...]
  acmesim list [keys|metrics [--markdown]]
  acmesim workload generate --preset seren|kalos|acme [--days N] [--seed S] -o trace.csv
  acmesim compare A.yaml B.yaml [--seeds N] [--first-seed S] [--jobs N] [--out DIR] [--set key=value ...]
  acmesim compare BASE.yaml [--set key=value ...] --vs [B.yaml] [--set key=value ...]
  acmesim sweep SWEEP.yaml [--jobs N] [--resume] [--out DIR] [--backend local|slurm] [--partition P]
                [--time-limit T] [--throttle N]
  acmesim plan PLAN.yaml [the options of sweep]
  acmesim plot RESULTS_DIR [--format png|svg] [--out DIR]
  acmesim report RESULTS_DIR [--out FILE]
  acmesim workload stats TRACE [--format F] [--against seren|kalos|...] [--json] [--on-bad-row error|skip]
  acmesim workload stats --recorded-vs-simulated RESULTS_DIR [--json]
  acmesim collective --preset NAME [--pod NAME] --nodes N --op allreduce|allgather|reducescatter|alltoall|sendrecv
                     [--sizes 1M:8G] [--measured FILE] [--json] [--set key.path=value ...]
  acmesim --help | --version

Without SCENARIO.yaml, run uses the embedded default scenario. Results go to --out
(default results/<scenario-name>/): jobs.csv, summary.json and utilisation.csv; --timeline
adds timeline.json (Chrome trace events, for Perfetto). compare runs two scenarios over the
same seeds and reports paired differences; sweep runs a grid of overrides, one process per point;
plan finds the cheapest configuration that meets targets with confidence; report writes one
self-contained HTML page of any results directory; workload stats --recorded-vs-simulated sets a
replayed log's recorded waits beside the run's; collective prints
what the collective model gives, as nccl-tests prints its measurements.
Exit codes: 0 success, 2 bad input (nothing simulated), 1 internal error, 3 (plan) no
configuration meets every target, 130 / 143 interrupted by SIGINT (Ctrl-C) / SIGTERM.
)";

// More diagnostics than this are summarised: a file of 80,000 unknown keys says so in a page.
constexpr std::size_t MAX_PRINTED_ERRORS = 50;

void print_input_error(const InputError& e)
{
  const auto& all = e.diagnostics();
  for (std::size_t i = 0; i < all.size() && i < MAX_PRINTED_ERRORS; ++i)
    std::cerr << "error: " << all[i].to_string() << '\n';
  if (all.size() > MAX_PRINTED_ERRORS)
    std::cerr << fmt::format("... and {} more errors, not shown\n", all.size() - MAX_PRINTED_ERRORS);
  std::cerr << e.diagnostics().size() << (e.diagnostics().size() == 1 ? " error" : " errors")
            << "; nothing was simulated\n";
}

// What INCOMPLETE says of a run that stopped with `e`.
std::string failure_note(const std::exception& e)
{
  std::string why = e.what();
  if (const auto* input = dynamic_cast<const InputError*>(&e)) {
    why.clear();
    for (const Diagnostic& d : input->diagnostics())
      why += (why.empty() ? "" : "; ") + d.to_string();
  }
  return fmt::format("the run failed: {}\nno results were written", why);
}

std::vector<std::string> overrides_of(const po::variables_map& vm)
{
  // --seed comes last so that it wins over a `--set seed=...`: compare and sweep give each run
  // its seed with --seed, and nothing else may change it.
  std::vector<std::string> overrides;
  if (vm.count("set"))
    for (const auto& s : vm["set"].as<std::vector<std::string>>())
      overrides.push_back(s);
  if (vm.count("seed"))
    overrides.push_back("seed=" + vm["seed"].as<std::string>());
  return overrides;
}

Scenario load(const po::variables_map& vm, const std::vector<std::string>& extra_overrides = {})
{
  auto overrides = overrides_of(vm);
  overrides.insert(overrides.end(), extra_overrides.begin(), extra_overrides.end());
  if (vm.count("scenario"))
    return load_scenario_file(vm["scenario"].as<std::string>(), overrides);
  return load_default_scenario(overrides);
}

// Options shared by the commands that take a scenario: the file, --seed and --set.
po::options_description scenario_options(const char* title)
{
  po::options_description options(title);
  options.add_options()("help,h", "show this help")("scenario", po::value<std::string>(), "scenario file")(
      "seed", po::value<std::string>(), "override the scenario seed")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a scenario key: key.path=value");
  return options;
}

// Parses a scenario command's arguments (the scenario file is the one positional argument);
// nullopt when --help was asked for and printed.
std::optional<po::variables_map> parse_scenario_command(const std::vector<std::string>& args,
                                                        const po::options_description& options)
{
  po::positional_options_description positional;
  positional.add("scenario", 1);
  auto vm = parse_options(args, options, positional);
  if (vm.count("help")) {
    std::cout << USAGE << '\n' << options;
    return std::nullopt;
  }
  return vm;
}

int cmd_run(const std::vector<std::string>& args)
{
  auto options = scenario_options("run options");
  options.add_options()("out,o", po::value<std::string>(), "results directory (default results/<scenario-name>)")(
      "timeline", "also write timeline.json (same as --set output.timeline=true)")(
      "quiet,q", "only errors on stderr")("verbose,v", "debug logs on stderr");
  const auto parsed = parse_scenario_command(args, options);
  if (!parsed)
    return EXIT_OK;
  const po::variables_map& vm = *parsed;
  if (vm.count("quiet") && vm.count("verbose"))
    throw UsageError("--quiet and --verbose exclude each other");
  const Verbosity verbosity =
      vm.count("quiet") ? Verbosity::Quiet : (vm.count("verbose") ? Verbosity::Verbose : Verbosity::Normal);
  setup_logging(verbosity);

  const Scenario scenario = load(vm, vm.count("timeline") ? std::vector<std::string>{"output.timeline=true"}
                                                          : std::vector<std::string>{});
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "results/" + scenario.name;
  const auto load_start = std::chrono::steady_clock::now();
  const auto loaded = std::make_shared<const Workload>(load_workload(scenario));
  const Workload& workload = *loaded;
  log_info(fmt::format("workload: {} jobs from {} in {:.3f} s", workload.jobs.size(), workload.source,
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count()));
  if (workload.jobs.empty())
    log_warn("the workload has no jobs: nothing to simulate beyond time 0");
  check_utilisation_bins(scenario, workload);
  if (const auto warning = checkpoint_interval_warning(scenario, workload))
    log_warn(*warning);
  check_inputs_apart_from_results(scenario_input_files(scenario), out);
  const ResultsDirLock lock = prepare_output_dir(out);
  // From here the directory holds no earlier run's results, and says so: a run that fails, is
  // interrupted or is killed leaves nothing that looks whole, and INCOMPLETE says why when it can.
  clear_results(out);
  mark_incomplete(out, run_in_progress_note());
  int exit_code = EXIT_OK;
  try {
    exit_code = run_scenario(scenario, workload, out, verbosity);
  } catch (const RunStalled&) { // INCOMPLETE already says why, beside the partial results
    throw;
  } catch (const Interrupted& e) {
    clear_results(out);
    const Interrupted said(e.signal(), std::string(e.what()) + "; the run stopped and wrote no results");
    mark_incomplete(out, said.what());
    throw said;
  } catch (const std::exception& e) {
    clear_results(out);
    mark_incomplete(out, failure_note(e));
    throw;
  }
  keep_until_exit(loaded);
  return exit_code;
}

int cmd_validate(const std::vector<std::string>& args)
{
  const auto parsed = parse_scenario_command(args, scenario_options("validate options"));
  if (!parsed)
    return EXIT_OK;
  const po::variables_map& vm = *parsed;
  if (!vm.count("scenario"))
    throw UsageError("validate needs a scenario file");
  setup_logging(Verbosity::Quiet);
  const Scenario scenario = load(vm);
  const Workload workload = load_workload(scenario); // reads every trace row
  check_utilisation_bins(scenario, workload);
  std::cout << fmt::format("ok: scenario '{}': {} jobs, cluster {} ({} nodes, {} {}s), scheduler {} with {} "
                           "placement\n",
                           scenario.name, workload.jobs.size(), scenario.cluster.name, scenario.cluster.total_nodes(),
                           scenario.cluster.total_gpus(), processor_word(scenario.cluster.processors),
                           scenario.scheduler.name, scenario.scheduler.placement);
  return EXIT_OK;
}

void list_policies(const char* title, const std::vector<const PolicyInfo*>& policies)
{
  std::cout << title << ":\n";
  for (const PolicyInfo* p : policies) {
    std::cout << fmt::format("  {:<16} {}\n", p->name, p->help);
    for (const auto& param : p->params)
      std::cout << fmt::format("  {:<16}   {} (default {}): {}\n", "", param.name, param.default_value, param.help);
  }
}

// `list`: presets and policies; `list keys [--markdown]`: every scenario key (docs/scenario-keys.md);
// `list metrics [--markdown]`: every metric (docs/metrics.md).
int cmd_list(const std::vector<std::string>& args)
{
  if (!args.empty()) {
    const bool markdown = args.size() == 2 && args[1] == "--markdown";
    if ((args[0] != "keys" && args[0] != "metrics") || args.size() > 2 || (args.size() == 2 && !markdown))
      throw UsageError("list takes no argument, or keys [--markdown], or metrics [--markdown]");
    if (args[0] == "keys")
      std::cout << (markdown ? key_reference_markdown() : key_reference_text());
    else
      std::cout << (markdown ? metric_reference_markdown() : metric_reference_text());
    return EXIT_OK;
  }
  std::cout << "cluster presets (cluster.preset):\n";
  for (const auto& name : cluster_preset_names())
    std::cout << fmt::format("  {:<16} {}\n", name, cluster_preset_summary(name));
  list_policies("schedulers (scheduler.name)", scheduler_registry().policies());
  list_policies("placement policies (scheduler.placement)", placement_registry().policies());
  list_policies("recovery policies (recovery.name)", recovery_registry().policies());
  std::cout << "\nevery scenario key, with its type, unit, range, default and help: acmesim list keys\n"
               "every metric of compare, sweep and plan, with its unit and which way is better: acmesim list "
               "metrics\n";
  return EXIT_OK;
}

// Every command, once: `run_cli` dispatches through this table and names the listed ones when
// the command is unknown. `sweep-task` is what a Slurm array task runs, not typed by hand.
struct Command {
  std::string_view name;
  int (*handler)(const std::vector<std::string>&);
  bool listed = true;
};

constexpr Command COMMANDS[] = {
    {"run", cmd_run},           {"validate", cmd_validate}, {"list", cmd_list},
    {"compare", cmd_compare},   {"sweep", cmd_sweep},       {"sweep-task", cmd_sweep_task, false},
    {"plan", cmd_plan},         {"plot", cmd_plot},         {"report", cmd_report},
    {"workload", cmd_workload}, {"collective", cmd_collective},
};

const Command* find_command(std::string_view name)
{
  const auto found = std::ranges::find(COMMANDS, name, &Command::name);
  return found == std::end(COMMANDS) ? nullptr : found;
}

std::string listed_command_names()
{
  std::vector<std::string_view> names;
  for (const Command& command : COMMANDS)
    if (command.listed)
      names.push_back(command.name);
  return join_names(names);
}

} // namespace

int run_cli(int argc, const char* const* argv)
{
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::cerr << USAGE;
      return EXIT_BAD_INPUT;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << USAGE;
      return EXIT_OK;
    }
    if (command == "--version") {
      std::cout << "acmesim " << VERSION << '\n';
      return EXIT_OK;
    }
    if (const Command* found = find_command(command))
      return found->handler(args);
    throw UsageError(fmt::format("unknown command '{}'; expected {}", command, listed_command_names()));
  } catch (const Interrupted& e) {
    std::cerr << e.what() << "\n";
    return e.exit_code();
  } catch (const InputError& e) {
    print_input_error(e);
    return EXIT_BAD_INPUT;
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << "\n(see acmesim --help)\n";
    return EXIT_BAD_INPUT;
  } catch (const WriteError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return EXIT_INTERNAL;
  } catch (const RunStalled& e) {
    std::cerr << "error: " << e.what() << '\n';
    return EXIT_INTERNAL;
  } catch (const PluginError& e) {
    // The plugin's fault, not acmesim's: the run stopped and wrote no results.
    std::cerr << "error: " << e.what() << "\nthe run stopped; no results were written\n";
    return EXIT_INTERNAL;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << '\n';
    return EXIT_INTERNAL;
  }
}

} // namespace acmesim
