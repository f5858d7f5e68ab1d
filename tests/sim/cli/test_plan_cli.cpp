// `acmesim plan` end to end on a cluster whose answer is known by construction: five jobs of one
// whole node each, all submitted at once, wait for nothing only when there are five nodes or more.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;
namespace fs = std::filesystem;

namespace {

// The scenario and its trace (tests/data/scenarios/five-jobs.yaml), beside the plans that name it.
void write_base()
{
  for (const char* name : {"five-jobs.csv", "five-jobs.yaml"})
    fs::copy_file(fs::path(ACMESIM_SOURCE_DIR) / "tests/data/scenarios" / name, scratch() / name,
                  fs::copy_options::overwrite_existing);
}

// One to eight nodes by bisection, priced per GPU, for the given targets.
std::string plan_file(const std::string& name, const std::string& targets, const std::string& extra = "")
{
  write_base();
  return write_scratch_file(name, "scenario: five-jobs.yaml\n"
                                  "seeds: 2\n"
                                  "variables:\n"
                                  "  cluster.nodes: {from: 1, to: 8, search: bisect}\n" +
                                      extra +
                                      "cost: {per_unit: {cluster.nodes: 8}}\n"
                                      "targets:\n" +
                                      targets)
      .string();
}

const std::string NO_WAIT = "  - {metric: wait_s.all.mean, at_most: 0}\n";

std::string plan(const std::string& file, const std::string& out, const std::string& extra = "")
{
  return "plan '" + file + "' --quiet --jobs 2 --out '" + (scratch() / out).string() + "' " + extra;
}

// A candidate of plan.json by id.
nlohmann::json candidate(const nlohmann::json& plan, const std::string& id)
{
  for (const auto& c : plan.at("candidates"))
    if (c.at("id") == id)
      return c;
  FAIL("plan.json has no candidate " << id);
  return {};
}

std::size_t lines(const std::string& text)
{
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("plan: bisection finds the fewest nodes that meet the target, in the runs it should need")
{
  const auto o = run_acmesim(plan(plan_file("nodes.yaml", NO_WAIT), "nodes"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(scratch() / "nodes" / "plan.json"));
  // Eight values: the last, then 4 (misses: one job waits 1,000 s), 6 and 5; two seeds each.
  CHECK(j.at("answer") == "c000004");
  // The base scenario's two runs come first; the answer's neighbours (4 and 6) were both run.
  CHECK(j.at("rounds") == 1 + 4);
  CHECK(j.at("runs") == 2 + 8);
  REQUIRE(j.at("candidates").size() == 4);
  const auto& four = j.at("candidates").at(0);
  CHECK(four.at("values").at("cluster.nodes") == "4");
  CHECK(four.at("targets").at(0).at("mean") == 200.0); // 1,000 s over five jobs
  CHECK(four.at("misses") == nlohmann::json::array({"wait_s.all.mean <= 0"}));
  CHECK(j.at("just_below") == nlohmann::json::array({"c000003"}));
  CHECK_THAT(o.out, Catch::Contains("answer: cluster.nodes=5 (cost 40)") &&
                        Catch::Contains("just below: cluster.nodes=4 (cost 32) misses wait_s.all.mean <= 0"));
  // Every run is a sweep point: one row each in points.csv, and their metrics in results.csv.
  CHECK(j.at("neighbours") == nlohmann::json({{"cheaper", "c000003"}, {"dearer", "c000005"}}));
  CHECK(lines(slurp(scratch() / "nodes" / "points.csv")) == 1 + 2 + 8);
  CHECK_THAT(slurp(scratch() / "nodes" / "results.csv"), Catch::Contains("\nc000004-s001,5,2,wait_s.all.mean,0\n"));
}

TEST_CASE("plan: when no candidate meets every target, it says which target none met, exit 3")
{
  const auto o = run_acmesim(plan(plan_file("infeasible.yaml", NO_WAIT + "  - {metric: makespan_s, at_most: 10}\n"),
                                  "infeasible"));
  CHECK(o.exit_code == 3);
  CHECK_THAT(o.out, Catch::Contains("no candidate meets every target; none meets makespan_s <= 10"));
  CHECK_FALSE(o.out.find("none meets wait_s.all.mean") != std::string::npos); // eight nodes met it
  const auto j = nlohmann::json::parse(slurp(scratch() / "infeasible" / "plan.json"));
  CHECK(j.at("answer").is_null());
  CHECK(j.at("unmet_targets") == nlohmann::json::array({"makespan_s <= 10"}));
  CHECK(j.at("runs") == 2 + 2); // the base, then the last value failed: nothing cheaper is tried
}

TEST_CASE("plan: resumed after an interruption it runs only what was left and writes the same plan.json")
{
  const std::string file = plan_file("resume.yaml", NO_WAIT, "  scheduler.name: {values: [fifo, easy-backfill]}\n");
  REQUIRE(run_acmesim(plan(file, "resume")).exit_code == 0);
  const fs::path out = scratch() / "resume";
  const std::string first = slurp(out / "plan.json");
  // As if killed: the plan's own files gone, and one run never finished.
  fs::remove(out / "plan.json");
  fs::remove(out / "results.csv");
  fs::remove(out / "points" / "c000009-s001" / "status.json");
  const auto again = run_acmesim(plan(file, "resume", "--resume"));
  INFO(again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(slurp(out / "plan.json") == first);
  CHECK_THAT(again.out, Catch::Contains("18 runs (17 from an earlier plan)"));
}

TEST_CASE("plan: a target on a metric no run can report is an input error before anything runs")
{
  const auto o = run_acmesim(plan(plan_file("typo.yaml", "  - {metric: wait_s.all.mena, at_most: 0}\n"), "typo"));
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("wait_s.all.mena") && Catch::Contains("did you mean wait_s.all.mean?"));
  CHECK_FALSE(fs::exists(scratch() / "typo" / "points"));
}

TEST_CASE("plan: a target on a metric the base scenario's runs do not report stops the plan before any candidate "
          "runs, exit 2, naming it")
{
  fs::create_directories(scratch() / "no-mllm");
  write_scratch_file("no-mllm/plan.json", "{\"answer\": \"of an earlier plan\"}\n");
  const auto o = run_acmesim(plan(plan_file("no-mllm.yaml", "  - {metric: wait_s.by_type.MLLM.mean, at_most: 0}\n"),
                                  "no-mllm"));
  CHECK(o.exit_code == 2);
  CHECK_FALSE(fs::exists(scratch() / "no-mllm" / "plan.json"));
  CHECK_THAT(o.err, Catch::Contains("the base scenario seed 1 reports no wait_s.by_type.MLLM.mean") &&
                        Catch::Contains("it reports: makespan_s, wait_s.all.mean") && Catch::Contains("--resume"));
  CHECK_THAT(o.err, Catch::Contains("round 1, the base scenario") && !Catch::Contains("round 2"));
}

TEST_CASE("plan: a candidate too small for a job type misses its target and is unfit, saying why, and the plan goes "
          "on to an answer")
{
  // A pretraining job of two nodes and two evaluation jobs of one, at once. One node rejects the
  // pretraining job: no pretraining wait, one job rejected. Two nodes run it at once.
  write_scratch_file("big-job.csv", "job_id,user,gpu_num,type,state,submit_time,duration\n"
                                    "p,u,16,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,1000\n"
                                    "e1,u,8,Eval,COMPLETED,2023-03-01 00:00:01+00:00,100\n"
                                    "e2,u,8,Eval,COMPLETED,2023-03-01 00:00:01+00:00,100\n");
  write_scratch_file("big-job.yaml", "cluster: {nodes: 4, gpus_per_node: 8}\nworkload: {trace: big-job.csv}\n"
                                     "scheduler: {name: fifo}\n");
  const std::string file = write_scratch_file("too-small.yaml",
                                              "scenario: big-job.yaml\nseeds: 2\n"
                                              "variables: {cluster.nodes: {values: [1, 2, 4]}}\n"
                                              "cost: {per_unit: {cluster.nodes: 8}}\n"
                                              "targets: [{metric: wait_s.by_type.Pretrain.p95, at_most: 0}]\n")
                               .string();
  const auto o = run_acmesim(plan(file, "too-small"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(scratch() / "too-small" / "plan.json"));
  CHECK(j.at("answer") == "c000001");
  const auto one_node = candidate(j, "c000000");
  CHECK(one_node.at("meets_targets") == false);
  const auto& target = one_node.at("targets").at(0);
  CHECK(target.at("met") == false);
  CHECK(target.at("mean").is_null());
  CHECK(target.at("bound").is_null());
  CHECK_THAT(target.at("missing").get<std::string>(),
             Catch::Contains("candidate c000000 seed 1 reports no wait_s.by_type.Pretrain.p95"));
  const auto misses = one_node.at("misses");
  REQUIRE(misses.size() == 2);
  CHECK_THAT(misses.at(0).get<std::string>(),
             Catch::StartsWith("rejects 1 jobs (mean over the seeds; the base scenario 0)"));
  CHECK_THAT(misses.at(1).get<std::string>(), Catch::Contains("wait_s.by_type.Pretrain.p95") &&
                                                  Catch::Contains("reports no wait_s.by_type.Pretrain.p95"));
  CHECK(candidate(j, "c000001").at("targets").at(0).at("missing").is_null());
  // The figures and the report page take a candidate without a value.
  const auto plotted = run_acmesim("plot '" + (scratch() / "too-small").string() + "' --format svg");
  CHECK(plotted.exit_code == 0);
  const auto page = run_acmesim("report '" + (scratch() / "too-small").string() + "' --out -");
  CHECK(page.exit_code == 0);
  CHECK_THAT(page.out, Catch::Contains("rejects 1 jobs"));
}

TEST_CASE("plan: a variable value the scenario refuses is an input error before anything runs")
{
  write_base();
  const std::string file = write_scratch_file("bad-value.yaml", "scenario: five-jobs.yaml\nseeds: 2\n"
                                                                "variables: {cluster.nodes: {values: [1, -3]}}\n"
                                                                "cost: {per_unit: {cluster.nodes: 1}}\n"
                                                                "targets: [{metric: wait_s.all.mean, at_most: 0}]\n")
                               .string();
  const auto o = run_acmesim(plan(file, "bad-value"));
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("bad-value.yaml:3:13: key 'cluster.nodes', value '-3'") &&
                        Catch::Contains("nothing was simulated") && !Catch::Contains("--set"));
  CHECK_FALSE(fs::exists(scratch() / "bad-value" / "points"));
}

TEST_CASE("plan: the answer beside the base, its neighbours, and metrics it worsens flagged")
{
  // Four nodes keep the mean wait at 200 s, within 300; the bisection ran 8, 4, 2 and 3 nodes, so
  // the dearer neighbour (5) runs after the search.
  const auto o = run_acmesim(plan(plan_file("beside.yaml", "  - {metric: wait_s.all.mean, at_most: 300}\n"), "beside"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(scratch() / "beside" / "plan.json"));
  CHECK(j.at("answer") == "c000003");
  CHECK(j.at("neighbours") == nlohmann::json({{"cheaper", "c000002"}, {"dearer", "c000004"}}));
  CHECK_THAT(o.err, Catch::Contains("the answer's neighbours: 1 candidates: 2 runs to run"));
  // Margins: 300 - 200 for the answer, 300 - 400 for three nodes.
  CHECK(candidate(j, "c000003").at("targets").at(0).at("margin") == 100.0);
  CHECK(candidate(j, "c000002").at("targets").at(0).at("margin") == -100.0);
  CHECK(j.at("non_monotone").empty());
  const auto find = [&](const std::string& metric) {
    for (const auto& m : j.at("beside_base"))
      if (m.at("metric") == metric)
        return m;
    FAIL("no " << metric << " beside the base");
    return nlohmann::json();
  };
  // On eight nodes every job ends at 1,000 s; on four, one waits 1,000 s more.
  const auto jct = find("jct_s.all.mean");
  CHECK(jct.at("base") == 1000.0);
  CHECK(jct.at("answer") == 1200.0);
  CHECK(jct.at("change") == Approx(0.2));
  CHECK(jct.at("flagged") == true);
  CHECK(find("makespan_s").at("flagged") == true);
  CHECK(find("wait_s.all.mean").at("role") == "target");
  CHECK(find("wait_s.all.mean").at("flagged") == false); // a target is judged, not flagged
  CHECK(find("utilisation.mean_gpu_busy").at("worse") == false); // fuller with fewer nodes
  CHECK_THAT(o.out, Catch::Contains("! jct_s.all.mean") && Catch::Contains("+20.0%") &&
                        Catch::Contains("one step dearer: cluster.nodes=5 (cost 40) meets everything"));
}

TEST_CASE("plan: a guard relative to the base moves the answer; robustness reruns it under more load")
{
  // At four nodes the mean JCT is 20% over the base's; the guard allows 10%, so five nodes it is.
  // Twice the load on five nodes: ten jobs, five wait 1,000 s, a mean of 500 s.
  const std::string file = plan_file("guarded.yaml", "  - {metric: wait_s.all.mean, at_most: 300}\n",
                                     "guards: [{metric: jct_s.all.mean, worsens_by_at_most: 0.1}]\n"
                                     "robustness: {load_scale: [1, 2]}\n");
  const auto o = run_acmesim(plan(file, "guarded"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(scratch() / "guarded" / "plan.json"));
  CHECK(j.at("answer") == "c000004");
  const auto four = candidate(j, "c000003");
  CHECK(four.at("values").at("cluster.nodes") == "4");
  CHECK(four.at("guards").at(0).at("relative") == Approx(0.2));
  CHECK(four.at("guards").at(0).at("met") == false);
  CHECK(four.at("misses") == nlohmann::json::array({"jct_s.all.mean at most 10% worse than the base"}));
  const auto& robustness = j.at("robustness");
  REQUIRE(robustness.size() == 2);
  CHECK(robustness.at(0).at("load_scale") == 1.0);
  CHECK(robustness.at(0).at("meets_targets") == true);
  CHECK(robustness.at(1).at("load_scale") == 2.0);
  CHECK(robustness.at(1).at("targets").at(0).at("mean") == 500.0);
  CHECK(robustness.at(1).at("meets_targets") == false);
  CHECK(fs::exists(scratch() / "guarded" / "points" / "c000004-load2-s001" / "summary.json"));
  CHECK_THAT(o.out, Catch::Contains("at load x1: the answer still meets every target") &&
                        Catch::Contains("at load x2: misses wait_s.all.mean <= 300 (mean 500"));
}

TEST_CASE("plan: a cost of capital and energy over a horizon, with its unit")
{
  const std::string file = write_scratch_file(
      "energy.yaml", "scenario: five-jobs.yaml\nseeds: 2\n"
                     "variables: {cluster.nodes: {values: [5, 6]}}\n"
                     "cost: {per_unit: {cluster.nodes: 1000}, energy: {price_per_kwh: 0.2, horizon_days: 365}, "
                     "unit: USD}\n"
                     "targets: [{metric: wait_s.all.mean, at_most: 0}]\n")
                                 .string();
  write_base();
  const auto o = run_acmesim(plan(file, "energy"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(scratch() / "energy" / "plan.json"));
  const auto five = candidate(j, "c000000");
  // Energy: each seed's facility kWh per second of its makespan, for a year, at 0.2 per kWh.
  double expected = 0;
  for (const char* seed : {"s000", "s001"}) {
    const auto summary = nlohmann::json::parse(slurp(scratch() / "energy" / "points" / ("c000000-" + std::string(seed)) /
                                                     "summary.json"));
    expected += 0.2 * summary.at("energy").at("facility_kwh").get<double>() * 365 * 86400 /
                summary.at("makespan_s").get<double>() / 2;
  }
  CHECK(expected > 0);
  CHECK(five.at("cost_parts").at("capital") == 5000.0);
  CHECK(five.at("cost_parts").at("energy").get<double>() == Approx(expected));
  CHECK(five.at("cost").get<double>() == Approx(5000 + expected));
  CHECK(j.at("cost_unit") == "USD");
  CHECK(j.at("answer") == "c000000");
  // A grid ran every candidate: the neighbours are the next in cost, none cheaper here.
  CHECK(j.at("neighbours") == nlohmann::json({{"cheaper", nullptr}, {"dearer", "c000001"}}));
  CHECK_THAT(o.out, Catch::Contains("USD: capital 5000, energy"));
}
