// The parts of `acmesim plan` that run nothing: the plan file, the search and the judging of
// candidates (docs/planning.md). The command itself is tested in tests/sim/cli/test_plan_cli.cpp.
#include "sim/experiment/PlanResult.hpp"
#include "sim/experiment/PlanSearch.hpp"
#include "sim/experiment/PlanSpec.hpp"
#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace acmesim;
using acmesim::testing::input_errors;

namespace {

PlanSpec parse(const std::string& text)
{
  return parse_plan(text, "plan.yaml", ACMESIM_SOURCE_DIR "/scenarios", "plan");
}

const std::string TARGETS = "targets: [{metric: wait_s.all.mean, at_most: 60}]\n";

// A plan of one bisected variable of `n` values (0, 1, ..., n - 1).
PlanSpec line_of(int n)
{
  return parse("seeds: 2\nvariables:\n  x: {from: 0, to: " + std::to_string(n - 1) +
               ", search: bisect}\ncost: {per_unit: {x: 1}}\n" + TARGETS);
}

// Runs the search with a feasibility rule; returns the candidates it ran, in order.
template <typename Feasible>
std::vector<std::size_t> search_with(const PlanSpec& spec, Feasible&& feasible)
{
  PlanSearch search(spec);
  std::vector<std::size_t> ran;
  for (auto round = search.next_round(); !round.empty(); round = search.next_round())
    for (const std::size_t c : round) {
      ran.push_back(c);
      search.tell(c, feasible(c));
    }
  return ran;
}

std::string message_of(const std::vector<Diagnostic>& diags)
{
  std::string all;
  for (const auto& d : diags)
    all += d.to_string() + "\n";
  return all;
}

} // namespace

TEST_CASE("plan file: variables from a range or a list, targets, a linear cost, seeds")
{
  const PlanSpec s = parse("scenario: swf-replay.yaml\n"
                           "set: {workload.days: 2}\n"
                           "seeds: 3\n"
                           "confidence: 0.9\n"
                           "variables:\n"
                           "  cluster.nodes: {from: 8, to: 16, step: 4, search: bisect}\n"
                           "  scheduler.name: {values: [fifo, easy-backfill]}\n"
                           "cost: {per_unit: {cluster.nodes: 8}, fixed: 100}\n"
                           "targets:\n"
                           "  - {metric: wait_s.all.mean, at_most: 600}\n"
                           "  - {metric: training.ettr_large.mean, at_least: 0.95}\n");
  CHECK(s.scenario == ACMESIM_SOURCE_DIR "/scenarios/swf-replay.yaml");
  CHECK(s.set == std::vector<std::string>{"workload.days=2"});
  CHECK(s.seeds == std::vector<std::uint64_t>{1, 2, 3});
  CHECK(s.confidence == 0.9);
  REQUIRE(s.variables.size() == 2);
  CHECK(s.variables[0].values == std::vector<std::string>{"8", "12", "16"});
  CHECK(s.variables[0].bisect);
  CHECK(s.variables[1].values == std::vector<std::string>{"fifo", "easy-backfill"});
  CHECK_FALSE(s.variables[1].bisect);
  CHECK(s.candidate_count() == 6);
  CHECK(s.value_indices(5) == std::vector<std::size_t>{2, 1});
  CHECK(s.candidate_of({1, 0}) == 2);
  REQUIRE(s.targets.size() == 2);
  CHECK(s.targets[0].describe() == "wait_s.all.mean <= 600");
  CHECK(s.targets[1].describe() == "training.ettr_large.mean >= 0.95");
  CHECK(s.cost.describe(s.variables) == "8 x cluster.nodes + 100");
}

TEST_CASE("plan file: what cannot be planned is refused naming the key")
{
  const auto errors = [](const std::string& text) { return message_of(input_errors([&] { parse(text); })); };
  CHECK_THAT(errors("seeds: 1\nvariables: {x: {values: [1]}}\ncost: {per_unit: {x: 1}}\n" + TARGETS),
             Catch::Contains("seeds") && Catch::Contains("at least 2 seeds"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {values: [1], search: bisect}, y: {values: [1], search: bisect}}\n"
                    "cost: {per_unit: {x: 1}}\n" + TARGETS),
             Catch::Contains("variables.y") && Catch::Contains("at most one variable"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {values: [a, b]}}\ncost: {per_unit: {x: 1}}\n" + TARGETS),
             Catch::Contains("cost.per_unit.x") && Catch::Contains("all numbers"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {values: [1]}}\ncost: {per_unit: {y: 1}}\n" + TARGETS),
             Catch::Contains("cost.per_unit.y") && Catch::Contains("one of the plan's variables"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {values: [1]}}\ncost: {metric: energy.it_kwh}\n"
                    "targets: [{metric: wait_s.all.mean, at_most: 1, at_least: 0}]\n"),
             Catch::Contains("targets.0") && Catch::Contains("exactly one of at_most and at_least"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {from: 5, to: 1}}\ncost: {metric: energy.it_kwh}\n" + TARGETS),
             Catch::Contains("variables.x.to") && Catch::Contains(">= from"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {from: 0, to: 1e9, step: 1}}\ncost: {metric: m}\n" + TARGETS),
             Catch::Contains("values is more than"));
  CHECK_THAT(errors("seeds: 2\nvariables: {seed: {values: [1, 2]}}\ncost: {metric: m}\n" + TARGETS),
             Catch::Contains("seeds are given by seeds:"));
  CHECK_THAT(errors("seeds: 2\nvariables: {x: {values: [1]}}\n" + TARGETS), Catch::Contains("cost"));
  CHECK_THAT(errors("seeds: 2\nconfidence: 0.3\nvariables: {x: {values: [1]}}\ncost: {metric: m}\n" + TARGETS),
             Catch::Contains("confidence"));
}

TEST_CASE("plan search: bisection finds the first value that meets the targets, in 1 + ceil(log2 n) runs")
{
  for (int n = 1; n <= 40; ++n) {
    const PlanSpec spec = line_of(n);
    const auto most = 1 + static_cast<std::size_t>(std::ceil(std::log2(n)));
    for (int answer = 0; answer <= n; ++answer) { // answer == n: met nowhere
      INFO("n " << n << ", targets met from " << answer);
      const auto ran = search_with(spec, [&](std::size_t c) { return static_cast<int>(c) >= answer; });
      CHECK(ran.front() == static_cast<std::size_t>(n - 1)); // the last value first
      CHECK(ran.size() <= (answer == n ? 1 : most));
      if (answer < n) {
        // The answer and the value below it were both run, so the boundary is shown, not guessed.
        CHECK(std::find(ran.begin(), ran.end(), static_cast<std::size_t>(answer)) != ran.end());
        if (answer > 0)
          CHECK(std::find(ran.begin(), ran.end(), static_cast<std::size_t>(answer - 1)) != ran.end());
      }
    }
  }
  // 8 values, met from the fifth: the last, then the fourth, sixth and fifth: 4 runs.
  CHECK(search_with(line_of(8), [](std::size_t c) { return c >= 4; }) == std::vector<std::size_t>{7, 3, 5, 4});
}

TEST_CASE("plan search: a grid variable gives each of its values its own bisection, run side by side")
{
  const PlanSpec spec = parse("seeds: 2\nvariables:\n  x: {from: 0, to: 7, search: bisect}\n"
                              "  y: {values: [a, b]}\ncost: {per_unit: {x: 1}}\n" + TARGETS);
  PlanSearch search(spec);
  // Candidate = x * 2 + y. With y = a the targets are met from x = 2, with y = b from x = 6.
  const auto feasible = [&](std::size_t c) { return c / 2 >= (c % 2 == 0 ? 2u : 6u); };
  std::vector<std::vector<std::size_t>> rounds;
  for (auto round = search.next_round(); !round.empty(); round = search.next_round()) {
    rounds.push_back(round);
    for (const std::size_t c : round)
      search.tell(c, feasible(c));
  }
  REQUIRE(rounds.size() == 4);
  CHECK(rounds[0] == std::vector<std::size_t>{14, 15}); // x = 7 for both
  CHECK(rounds[1] == std::vector<std::size_t>{6, 7});   // x = 3 for both
  CHECK(search.rounds() == 4);
}

TEST_CASE("plan result: a target is met only when its one-sided bound meets it; the cheapest feasible wins")
{
  const PlanSpec spec = line_of(3);
  const auto runs = [](double a, double b) {
    return std::vector<std::vector<RunMetric>>{{{"wait_s.all.mean", a}}, {{"wait_s.all.mean", b}}};
  };
  // Mean 50 under 60, but with 2 seeds of 40 and 60 the 95% upper bound is 50 + 6.314 x 10 / sqrt(2).
  const CandidateResult wide = judge_candidate(spec, 0, runs(40, 60));
  CHECK(wide.targets[0].value.mean == 50);
  CHECK(wide.targets[0].bound == Approx(50 + 6.3137515 * std::sqrt(200.0) / std::sqrt(2.0)));
  CHECK_FALSE(wide.feasible());
  CHECK(wide.targets[0].confidence == Approx(0.75)); // P(T_1 <= 1): T_1 is Cauchy, 1/2 + atan(1)/pi
  const CandidateResult narrow = judge_candidate(spec, 1, runs(49, 51));
  CHECK(narrow.feasible());
  CHECK(narrow.cost == 1);
  const CandidateResult also = judge_candidate(spec, 2, runs(10, 10));
  const PlanOutcome o = conclude_plan(spec, {also, wide, narrow}, 2);
  REQUIRE(o.answer);
  CHECK(o.candidates[*o.answer].candidate == 1);
  CHECK(o.just_below == std::vector<std::size_t>{0});
  CHECK(o.runs == 6);
  CHECK(plan_json(spec, o)["answer"] == "c000001");
  // None meeting the targets: the plan names the target no candidate met.
  const PlanOutcome none = conclude_plan(spec, {wide}, 1);
  CHECK_FALSE(none.answer);
  CHECK(none.unmet_targets == std::vector<std::size_t>{0});
  CHECK(plan_json(spec, none)["unmet_targets"][0] == "wait_s.all.mean <= 60");
}

TEST_CASE("plan result: a metric the runs do not report is refused, listing those they do")
{
  const PlanSpec spec = line_of(2);
  const std::vector<std::vector<RunMetric>> runs{{{"makespan_s", 1}}, {{"makespan_s", 2}}};
  CHECK_THAT(message_of(input_errors([&] { judge_candidate(spec, 0, runs); })),
             Catch::Contains("wait_s.all.mean") && Catch::Contains("it reports: makespan_s"));
}
