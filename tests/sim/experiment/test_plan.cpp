// The parts of `acmesim plan` that run nothing: the plan file, the search and the judging of
// candidates (docs/planning.md). The command itself is tested in tests/sim/cli/test_plan_cli.cpp.
#include "sim/experiment/PlanReport.hpp"
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
  // A repeated seed would be the same run counted twice: sd 0, "met" with confidence 1.
  CHECK_THAT(errors("seeds: [3, 3]\nvariables: {x: {values: [1]}}\ncost: {per_unit: {x: 1}}\n" + TARGETS),
             Catch::Contains("seeds.1") && Catch::Contains("seed 3 is listed twice"));
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
  const CandidateResult wide = judge_candidate(spec, 0, runs(40, 60), {});
  CHECK(wide.targets[0].value.mean == 50);
  CHECK(wide.targets[0].bound == Approx(50 + 6.3137515 * std::sqrt(200.0) / std::sqrt(2.0)));
  CHECK_FALSE(wide.feasible());
  CHECK(wide.targets[0].confidence == Approx(0.75)); // P(T_1 <= 1): T_1 is Cauchy, 1/2 + atan(1)/pi
  const CandidateResult narrow = judge_candidate(spec, 1, runs(49, 51), {});
  CHECK(narrow.feasible());
  CHECK(narrow.cost == 1);
  const CandidateResult also = judge_candidate(spec, 2, runs(10, 10), {});
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

TEST_CASE("plan result: a metric the base scenario's runs do not report is refused, listing those they do")
{
  const PlanSpec spec = line_of(2);
  const SeedMetrics base{{{"makespan_s", 1}}, {{"makespan_s", 2}}};
  CHECK_THAT(message_of(input_errors([&] { require_base_metrics(spec, base); })),
             Catch::Contains("the base scenario seed 1 reports no wait_s.all.mean") &&
                 Catch::Contains("it reports: makespan_s"));
  // Energy priced on a machine without a power model (a CPU machine): found before any candidate.
  const PlanSpec energy = parse("seeds: 2\nvariables: {x: {values: [1]}}\n" + TARGETS +
                                "cost: {per_unit: {x: 1}, energy: {price_per_kwh: 1, horizon_days: 1}}\n");
  const SeedMetrics no_energy{{{"wait_s.all.mean", 1}, {"makespan_s", 1}}, {{"wait_s.all.mean", 1}, {"makespan_s", 1}}};
  CHECK_THAT(message_of(input_errors([&] { require_base_metrics(energy, no_energy); })),
             Catch::Contains("reports no energy.facility_kwh"));
  CHECK_NOTHROW(require_base_metrics(spec, no_energy));
}

TEST_CASE("plan result: a candidate's run without a metric misses that target, saying why; one that rejects jobs "
          "the base runs, or whose cost is unknown, is unfit")
{
  const PlanSpec spec = line_of(2);
  const SeedMetrics base{{{"wait_s.all.mean", 5}, {"jobs.rejected", 0}},
                         {{"wait_s.all.mean", 5}, {"jobs.rejected", 0}}};
  // Seed 2's run has no wait: the target is missed with the reason, and nothing else is judged on it.
  const CandidateResult lacking =
      judge_candidate(spec, 0, {{{"wait_s.all.mean", 1}, {"jobs.rejected", 0}}, {{"jobs.rejected", 0}}}, base);
  REQUIRE(lacking.targets.size() == 1);
  CHECK_FALSE(lacking.targets[0].met);
  CHECK(lacking.targets[0].missing ==
        "candidate c000000 seed 2 reports no wait_s.all.mean (a job type without GPU jobs has no waits, a CPU machine "
        "no energy)");
  CHECK(lacking.unfit.empty());
  CHECK_FALSE(lacking.feasible());
  CHECK(misses(spec, lacking) == std::vector<std::string>{"wait_s.all.mean <= 60: " + lacking.targets[0].missing});
  // Waits of 0 s, but one job of the workload never ran: unfit, whatever its target says.
  const CandidateResult rejecting = judge_candidate(
      spec, 1, {{{"wait_s.all.mean", 0}, {"jobs.rejected", 1}}, {{"wait_s.all.mean", 0}, {"jobs.rejected", 1}}}, base);
  CHECK(rejecting.targets[0].met);
  CHECK_FALSE(rejecting.feasible());
  REQUIRE(rejecting.unfit.size() == 1);
  CHECK_THAT(rejecting.unfit[0], Catch::StartsWith("rejects 1 jobs (mean over the seeds; the base scenario 0)"));
  // An energy cost its runs cannot give: unfit, its cost infinite (null in plan.json).
  const PlanSpec energy = parse("seeds: 2\nvariables: {x: {values: [1]}}\n" + TARGETS +
                                "cost: {per_unit: {x: 1}, energy: {price_per_kwh: 1, horizon_days: 1}}\n");
  const SeedMetrics fast{{{"wait_s.all.mean", 0}, {"makespan_s", 10}}, {{"wait_s.all.mean", 0}, {"makespan_s", 10}}};
  const CandidateResult unpriced = judge_candidate(energy, 0, fast, fast);
  CHECK(std::isinf(unpriced.cost));
  REQUIRE(unpriced.unfit.size() == 1);
  CHECK_THAT(unpriced.unfit[0], Catch::StartsWith("its cost cannot be worked out: candidate c000000 seed 1 reports no "
                                                  "energy.facility_kwh"));
  CHECK_FALSE(unpriced.feasible());
}

TEST_CASE("plan file: guards, the warning share, robustness and a cost of capital and energy with a unit")
{
  const PlanSpec s = parse("seeds: 2\nvariables: {x: {values: [1, 2]}}\n"
                           "cost: {per_unit: {x: 8}, energy: {price_per_kwh: 0.1, horizon_days: 365}, unit: USD}\n" +
                           TARGETS +
                           "guards: [{metric: jct_s.by_type.Pretrain.mean, worsens_by_at_most: 0.1},\n"
                           "         {metric: training.ettr.mean, worsens_by_at_most: 0}]\n"
                           "warn_worse_than: 0.25\n"
                           "robustness: {load_scale: [1, 1.5]}\n");
  REQUIRE(s.guards.size() == 2);
  CHECK(s.guards[0].lower_is_better);
  CHECK_FALSE(s.guards[1].lower_is_better); // ETTR: higher is better, from the metric table
  CHECK(s.guards[0].describe() == "jct_s.by_type.Pretrain.mean at most 10% worse than the base");
  CHECK(s.warn_worse_than == 0.25);
  CHECK(s.robustness_load_scales == std::vector<double>{1, 1.5});
  REQUIRE(s.cost.energy);
  CHECK(s.cost.energy->price_per_kwh == 0.1);
  CHECK(s.cost.describe(s.variables) == "8 x x + 0.1 per facility kWh over 365 days (USD)");

  const auto errors = [](const std::string& text) { return message_of(input_errors([&] { parse(text); })); };
  const std::string plan = "seeds: 2\nvariables: {x: {values: [1]}}\n" + TARGETS;
  CHECK_THAT(errors(plan + "cost: {metric: energy.it_kwh, energy: {price_per_kwh: 1, horizon_days: 1}}\n"),
             Catch::Contains("give either metric, or per_unit"));
  CHECK_THAT(errors(plan + "cost: {energy: {price_per_kwh: 1}}\n"),
             Catch::Contains("cost.energy.horizon_days") && Catch::Contains("missing"));
  CHECK_THAT(errors(plan + "cost: {per_unit: {x: 1}}\n"
                           "guards: [{metric: network.nic_utilisation.mean, worsens_by_at_most: 0.1}]\n"),
             Catch::Contains("guards.0.metric") && Catch::Contains("no better direction"));
  CHECK_THAT(errors(plan + "cost: {per_unit: {x: 1}}\nguards: [{metric: makespan_s, worsens_by_at_most: -1}]\n"),
             Catch::Contains("guards.0.worsens_by_at_most"));
  CHECK_THAT(errors(plan + "cost: {per_unit: {x: 1}}\nrobustness: {load_scale: [1.2, 1.2, 0]}\n"),
             Catch::Contains("robustness.load_scale.1") && Catch::Contains("listed twice") &&
                 Catch::Contains("robustness.load_scale.2"));
  CHECK_THAT(errors("seeds: 2\nvariables: {workload.load_scale: {values: [1, 2]}}\ncost: {metric: makespan_s}\n" +
                    TARGETS + "robustness: {load_scale: [1.5]}\n"),
             Catch::Contains("robustness") && Catch::Contains("cannot be both"));
  CHECK_THAT(errors("set: {workload.load_scale: 2}\n" + plan +
                    "cost: {per_unit: {x: 1}}\nrobustness: {load_scale: [1.5]}\n"),
             Catch::Contains("robustness") && Catch::Contains("is set for every run"));
}

TEST_CASE("plan result: a guard is judged on the paired changes from the base, in the metric's worse direction")
{
  PlanSpec spec = parse("seeds: 2\nvariables: {x: {values: [1, 2]}}\ncost: {per_unit: {x: 1}}\n" + TARGETS +
                        "guards: [{metric: jct_s.all.mean, worsens_by_at_most: 0.1},"
                        " {metric: training.ettr.mean, worsens_by_at_most: 0.05}]\n");
  const auto runs = [](double jct_a, double jct_b, double ettr_a, double ettr_b) {
    return SeedMetrics{{{"wait_s.all.mean", 0}, {"jct_s.all.mean", jct_a}, {"training.ettr.mean", ettr_a}},
                       {{"wait_s.all.mean", 0}, {"jct_s.all.mean", jct_b}, {"training.ettr.mean", ettr_b}}};
  };
  const SeedMetrics base = runs(100, 200, 0.9, 0.9);
  // JCT 105 and 210: 5 and 10 worse, a mean of 7.5 against 10% of 150 = 15 allowed; but with two
  // seeds the upper bound is 7.5 + 6.314 x 3.536 / sqrt(2) = 23.3, over 15. ETTR 0.9 and 0.8: 0.05
  // worse on average (higher is better), allowed 0.045.
  const CandidateResult c = judge_candidate(spec, 0, runs(105, 210, 0.9, 0.8), base);
  REQUIRE(c.guards.size() == 2);
  CHECK(c.guards[0].worsening.mean == 7.5);
  CHECK(c.guards[0].allowed == 15);
  CHECK(c.guards[0].worsening.upper == Approx(7.5 + 6.3137515 * std::sqrt(12.5) / std::sqrt(2.0)));
  CHECK_FALSE(c.guards[0].met);
  CHECK(c.guards[0].relative() == Approx(0.05));
  CHECK(c.guards[1].worsening.mean == Approx(0.05));
  CHECK_FALSE(c.guards[1].met);
  CHECK_FALSE(c.feasible()); // the target is met; the guards are not
  CHECK(misses(spec, c) == std::vector<std::string>{"jct_s.all.mean at most 10% worse than the base",
                                                    "training.ettr.mean at most 5% worse than the base"});
  // Both seeds 10 s and 0.09 better: no spread, so the bound is the mean, within what is allowed.
  const CandidateResult better = judge_candidate(spec, 1, runs(90, 190, 0.99, 0.99), base);
  CHECK(better.guards[0].met);
  CHECK(better.guards[1].met);
  CHECK(better.feasible());
}

TEST_CASE("plan result: a value that meets everything before one that misses is reported as not monotone")
{
  const PlanSpec spec = line_of(4);
  const auto runs = [](double a) { return SeedMetrics{{{"wait_s.all.mean", a}}, {{"wait_s.all.mean", a}}}; };
  std::vector<CandidateResult> judged;
  for (const auto& [c, wait] : std::vector<std::pair<std::size_t, double>>{{0, 99}, {1, 10}, {2, 99}, {3, 10}})
    judged.push_back(judge_candidate(spec, c, runs(wait), {}));
  const PlanOutcome o = conclude_plan(spec, judged, 3);
  REQUIRE(o.answer);
  CHECK(*o.answer == 1);
  REQUIRE(o.non_monotone.size() == 1);
  CHECK(o.non_monotone[0].met == 1);
  CHECK(o.non_monotone[0].missed == 2);
  CHECK(o.non_monotone[0].what == "wait_s.all.mean <= 60");
  CHECK(o.cheaper == 0u);
  CHECK(o.dearer == 2u);
  CHECK(plan_json(spec, o)["non_monotone"] ==
        Json::array({{{"what", "wait_s.all.mean <= 60"}, {"meets", "c000001"}, {"misses", "c000002"}}}));
  // Without the dearer neighbour run, it is the one to run next.
  const PlanOutcome partial = conclude_plan(spec, {judged[0], judged[1], judged[3]}, 3);
  CHECK(neighbours_to_run(spec, partial) == std::vector<std::size_t>{2});
}

TEST_CASE("plan result: every metric of the answer beside the base's, those worse beyond the warning flagged")
{
  const PlanSpec spec = parse("seeds: 2\nvariables: {x: {values: [1]}}\ncost: {per_unit: {x: 1}}\n" + TARGETS +
                              "warn_worse_than: 0.2\n");
  const auto runs = [](double makespan, double busy, double rejected, double wait) {
    return SeedMetrics(2, {{"makespan_s", makespan},
                           {"utilisation.mean_gpu_busy", busy},
                           {"jobs.rejected", rejected},
                           {"wait_s.all.mean", wait}});
  };
  const auto beside = beside_base(spec, runs(1300, 0.5, 2, 500), runs(1000, 0.8, 0, 10));
  REQUIRE(beside.size() == 4); // in the table's order
  CHECK(beside[0].name == "makespan_s");
  CHECK(beside[0].change == Approx(0.3));
  CHECK(beside[0].flagged); // 30% worse, over 20%
  CHECK(beside[1].name == "wait_s.all.mean");
  CHECK(beside[1].role == "target");
  CHECK(beside[1].worse);
  CHECK_FALSE(beside[1].flagged);
  CHECK(beside[2].name == "utilisation.mean_gpu_busy");
  CHECK(beside[2].change == Approx(-0.375));
  CHECK(beside[2].flagged); // higher is better
  CHECK(beside[3].name == "jobs.rejected");
  CHECK_FALSE(beside[3].change); // from 0
  CHECK(beside[3].flagged);
}
