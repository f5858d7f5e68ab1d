// `acmesim plan PLAN.yaml`: the cheapest configuration that meets every target (docs/planning.md).
// The base scenario runs first (guards and the answer's comparison are relative to it); then the
// search (PlanSearch) says which candidates to run, round after round; then the answer's
// neighbours not yet run, and the answer under more load. Every run is a point of a sweep,
// prepared, run and resumed by the sweep's machinery; their metrics judge the candidates
// (PlanResult); the results directory is a sweep's, with plan.json beside results.csv.
#include "models/common/InputError.hpp"
#include "models/common/Interrupts.hpp"
#include "models/common/Text.hpp"
#include "sim/cli/CommandLine.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/ExperimentBackend.hpp"
#include "sim/cli/ExperimentCommands.hpp"
#include "sim/cli/ProgressLine.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/config/WorkloadSection.hpp"
#include "sim/experiment/PlanReport.hpp"
#include "sim/experiment/PlanResult.hpp"
#include "sim/experiment/PlanSearch.hpp"
#include "sim/experiment/PlanSpec.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/JsonText.hpp"
#include "sim/report/RunMetrics.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace acmesim {

namespace {

constexpr const char* PLAN_USAGE = R"(usage: acmesim plan PLAN.yaml [options]

Finds the cheapest configuration of PLAN.yaml's variables that meets all of its targets: each
candidate runs on every seed of the plan (the same seeds for all), a target counts as met when
the one-sided confidence bound of its mean meets it, and a variable marked `search: bisect` is
searched by halving. Writes OUT/plan.json, a sweep's results.csv and points.csv, and every run
under OUT/points/; prints a table of the candidates and the answer. `acmesim plot OUT` draws the
trade-off. Exit code 3 when no candidate meets every target. See docs/planning.md.

)";

// The runs of a plan as a sweep: the plan's variables are the sweep's parameters, and every
// candidate run is a point (candidate id and seed index), added as the search asks for them.
// A run of the plan failed: the plan cannot judge its candidate and stops (exit 1).
struct PlanRunFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

SweepSpec runs_as_sweep(const PlanSpec& plan)
{
  SweepSpec s;
  s.name = plan.name;
  s.source = plan.source;
  s.scenario = plan.scenario;
  s.scenario_digest = plan.scenario_digest;
  s.set = plan.set;
  for (const auto& v : plan.variables)
    s.parameters.push_back(v.key);
  if (!plan.robustness_load_scales.empty())
    s.parameters.push_back(LOAD_SCALE_KEY);
  s.out = plan.out;
  s.slurm = plan.slurm;
  return s;
}

// The runs of one configuration, one per seed: `prefix`-s000, ... The base scenario sets no
// variable; a candidate sets every one; a robustness rerun also sets workload.load_scale.
std::vector<SweepPoint> seed_points(const PlanSpec& plan, const std::string& prefix,
                                    std::optional<std::size_t> candidate, std::optional<double> load_scale = {})
{
  std::vector<std::optional<std::string>> values(plan.variables.size());
  if (candidate) {
    const auto indices = plan.value_indices(*candidate);
    for (std::size_t i = 0; i < plan.variables.size(); ++i)
      values[i] = plan.variables[i].values[indices[i]];
  }
  if (!plan.robustness_load_scales.empty())
    values.push_back(load_scale ? std::optional(format_number(*load_scale)) : std::nullopt);
  std::vector<SweepPoint> points;
  for (std::size_t s = 0; s < plan.seeds.size(); ++s)
    points.push_back({fmt::format("{}-s{:03}", prefix, s), values, plan.seeds[s]});
  return points;
}

std::vector<SweepPoint> points_of(const PlanSpec& plan, std::size_t candidate)
{
  return seed_points(plan, plan.candidate_id(candidate), candidate);
}

std::vector<SweepPoint> base_points(const PlanSpec& plan) { return seed_points(plan, "base", std::nullopt); }

std::vector<SweepPoint> robustness_points(const PlanSpec& plan, std::size_t candidate, double load_scale)
{
  return seed_points(plan, plan.candidate_id(candidate) + "-load" + format_number(load_scale), candidate,
                     load_scale);
}

class PlanRunner {
public:
  PlanRunner(const PlanSpec& plan, fs::path out, const ExperimentBackend& backend)
      : plan_(plan), runs_(runs_as_sweep(plan)), out_(std::move(out)), backend_(backend)
  {
  }

  // The base scenario's runs, before any candidate's: guards are judged against them.
  void run_base()
  {
    run_points(base_points(plan_), "the base scenario");
    base_ = metrics_of(base_points(plan_));
    require_base_metrics(plan_, base_);
  }

  // Runs the candidates of one round (those not finished before, with --resume) and judges them.
  std::vector<CandidateResult> run_round(const std::vector<std::size_t>& candidates, const std::string& what)
  {
    std::vector<SweepPoint> points;
    for (const std::size_t c : candidates)
      for (auto& point : points_of(plan_, c))
        points.push_back(std::move(point));
    run_points(points, fmt::format("{}: {} candidates", what, candidates.size()));
    std::vector<CandidateResult> judged;
    for (const std::size_t c : candidates) {
      const SeedMetrics& runs = candidate_metrics_[c] = metrics_of(points_of(plan_, c));
      judged.push_back(judge_candidate(plan_, c, runs, base_));
    }
    return judged;
  }

  // The answer rerun at every load scale of `robustness` (scale 1 is the answer's own runs).
  std::vector<RobustnessResult> run_robustness(std::size_t answer)
  {
    std::vector<SweepPoint> points;
    for (const double scale : plan_.robustness_load_scales)
      if (scale != 1)
        for (auto& point : robustness_points(plan_, answer, scale))
          points.push_back(std::move(point));
    run_points(points, "robustness: the answer under other loads");
    std::vector<RobustnessResult> results;
    for (const double scale : plan_.robustness_load_scales) {
      const SeedMetrics runs =
          scale == 1 ? candidate_metrics_.at(answer) : metrics_of(robustness_points(plan_, answer, scale));
      results.push_back({scale, judge_targets(plan_, fmt::format("the answer at load x{:g}", scale), runs)});
    }
    return results;
  }

  std::vector<MetricBeside> beside_base(std::size_t answer) const
  {
    return acmesim::beside_base(plan_, candidate_metrics_.at(answer), base_);
  }

  // results.csv and points.csv of every run, in candidate order.
  void gather()
  {
    std::sort(runs_.points.begin(), runs_.points.end(),
              [](const SweepPoint& a, const SweepPoint& b) { return a.id < b.id; });
    gather_sweep(out_, runs_);
  }

  std::size_t resumed() const { return resumed_; }

  std::size_t runs() const { return runs_.points.size(); }
  std::size_t rounds() const { return round_; }

private:
  void run_points(const std::vector<SweepPoint>& points, const std::string& what)
  {
    if (points.empty())
      return;
    std::vector<fs::path> pending;
    for (const auto& point : points) {
      runs_.points.push_back(point);
      if (backend_.resume && point_finished(out_, runs_, point)) {
        ++resumed_;
        continue;
      }
      prepare_point(out_, runs_, point);
      pending.push_back(point_dir(out_, point));
    }
    ++round_;
    std::cerr << fmt::format("plan '{}' round {}, {}: {} runs to run\n", plan_.name, round_, what, pending.size());
    ProgressLine progress(fmt::format("plan round {}", round_), pending.size(), backend_.quiet);
    run_prepared(pending, out_, backend_, "acmesim-" + plan_.name,
                 [&](std::size_t done, std::size_t failed) { progress.update(done, failed); });
    if (interrupt_signal() != 0) {
      gather(); // points.csv says which runs were interrupted
      stop_if_interrupted(fmt::format("in round {} of plan '{}': no plan.json was written; the same command with "
                                      "--resume goes on from the runs that finished (points.csv)",
                                      round_, plan_.name));
    }
  }

  SeedMetrics metrics_of(const std::vector<SweepPoint>& points) const
  {
    SeedMetrics metrics;
    for (const auto& point : points) {
      const fs::path dir = point_dir(out_, point);
      if (const std::string error = run_error(dir); !error.empty())
        throw PlanRunFailed(fmt::format("run {} failed: {} (its files are in {}; --resume runs it again)",
                                             point.id, error, dir.string()));
      metrics.push_back(read_run_metrics(dir));
    }
    return metrics;
  }

  const PlanSpec& plan_;
  SweepSpec runs_;
  fs::path out_;
  const ExperimentBackend& backend_;
  SeedMetrics base_;
  std::map<std::size_t, SeedMetrics> candidate_metrics_; // of every candidate judged, read once
  std::size_t resumed_ = 0;
  std::size_t round_ = 0;
};

} // namespace

int cmd_plan(const std::vector<std::string>& args)
{
  po::options_description options("plan options");
  options.add_options()("help,h", "show this help")("plan", po::value<std::string>(), "plan file");
  add_backend_options(options);
  const auto parsed = parse_command_line(args, options, {"plan", 1, "plan needs a plan file"}, PLAN_USAGE);
  if (!parsed)
    return EXIT_OK;
  const po::variables_map& vm = *parsed;
  const PlanSpec plan = load_plan_file(vm["plan"].as<std::string>());
  // The base scenario with the common overrides must load, and so must its extremes: the first
  // and the last candidate (every variable at its first, then at its last value).
  const auto check = [&](std::size_t candidate) {
    std::vector<std::string> overrides = plan.set;
    const auto indices = plan.value_indices(candidate);
    for (std::size_t i = 0; i < plan.variables.size(); ++i)
      overrides.push_back(plan.variables[i].key + "=" + plan.variables[i].values[indices[i]]);
    load_scenario_or_default(plan.scenario, overrides);
  };
  try {
    check(0);
    check(plan.candidate_count() - 1);
  } catch (const InputError& e) {
    throw located_in_file(e, plan.key_where);
  }
  const ExperimentBackend backend = read_backend_options(vm, plan.slurm);
  const ExperimentDir dir = experiment_output_dir(vm, plan.out, plan.name);
  const fs::path& out = dir.path;
  fs::remove(out / "plan.json"); // a plan that stops must not leave an earlier one looking current

  PlanRunner runner(plan, out, backend);
  PlanSearch search(plan);
  PlanOutcome outcome;
  try {
    runner.run_base();
    std::vector<CandidateResult> judged;
    for (auto round = search.next_round(); !round.empty(); round = search.next_round())
      for (auto& result : runner.run_round(round, fmt::format("search round {}", search.rounds()))) {
        search.tell(result.candidate, result.feasible());
        judged.push_back(std::move(result));
      }
    outcome = conclude_plan(plan, judged, search.rounds());
    if (const auto neighbours = neighbours_to_run(plan, outcome); !neighbours.empty()) {
      for (auto& result : runner.run_round(neighbours, "the answer's neighbours"))
        judged.push_back(std::move(result));
      outcome = conclude_plan(plan, std::move(judged), search.rounds());
    }
    if (outcome.answer) {
      const std::size_t answer = outcome.candidates[*outcome.answer].candidate;
      outcome.beside_base = runner.beside_base(answer);
      outcome.robustness = runner.run_robustness(answer);
    }
  } catch (const InputError& e) {
    // A target or cost names a metric the runs do not report: the plan's fault, found only once
    // runs exist, which are kept.
    for (const auto& d : e.diagnostics())
      std::cerr << "error: " << d.to_string() << '\n';
    std::cerr << fmt::format("the plan stopped; its runs are kept in {} (fix the plan and add --resume)\n",
                             out.string());
    return EXIT_BAD_INPUT;
  } catch (const PlanRunFailed& e) {
    std::cerr << "error: " << e.what() << "\nthe plan stopped\n";
    return EXIT_INTERNAL;
  }
  runner.gather();
  outcome.runs = runner.runs();
  outcome.rounds = runner.rounds();
  AtomicFile json(out / "plan.json");
  write_json(json.stream(), plan_json(plan, outcome));
  json.commit();
  std::cout << fmt::format("plan '{}': {} candidates of {} in {} rounds, {} runs{}; {}/plan.json\n", plan.name,
                           outcome.candidates.size(), plan.candidate_count(), outcome.rounds, outcome.runs,
                           runner.resumed() ? fmt::format(" ({} from an earlier plan)", runner.resumed()) : "",
                           out.string());
  print_plan(std::cout, plan, outcome);
  return outcome.answer ? EXIT_OK : EXIT_NO_ANSWER;
}

} // namespace acmesim
