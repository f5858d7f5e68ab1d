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

// The scenario and its trace, once per test process.
void write_base()
{
  std::string trace = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                      "queue,gpu_time\n";
  for (int j = 1; j <= 5; ++j)
    trace += "j" + std::to_string(j) +
             ",u1,1,8,128,Eval,COMPLETED,2023-06-01 00:00:00,2023-06-01 00:00:00,2023-06-01 00:16:40,1000,0,8000\n";
  write_scratch_file("five-jobs.csv", trace);
  write_scratch_file("five-jobs.yaml", "cluster: {nodes: 8, gpus_per_node: 8}\n"
                                       "workload: {trace: five-jobs.csv}\n"
                                       "scheduler: {name: fifo}\n");
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
  CHECK(j.at("rounds") == 4);
  CHECK(j.at("runs") == 8);
  REQUIRE(j.at("candidates").size() == 4);
  const auto& four = j.at("candidates").at(0);
  CHECK(four.at("values").at("cluster.nodes") == "4");
  CHECK(four.at("targets").at(0).at("mean") == 200.0); // 1,000 s over five jobs
  CHECK(four.at("misses") == nlohmann::json::array({"wait_s.all.mean <= 0"}));
  CHECK(j.at("just_below") == nlohmann::json::array({"c000003"}));
  CHECK_THAT(o.out, Catch::Contains("answer: cluster.nodes=5 (cost 40)") &&
                        Catch::Contains("just below: cluster.nodes=4 (cost 32) misses wait_s.all.mean <= 0"));
  // Every run is a sweep point: one row each in points.csv, and their metrics in results.csv.
  CHECK(lines(slurp(scratch() / "nodes" / "points.csv")) == 1 + 8);
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
  CHECK(j.at("runs") == 2); // the last value failed: nothing cheaper is tried
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
  CHECK_THAT(again.out, Catch::Contains("16 runs (15 from an earlier plan)"));
}

TEST_CASE("plan: a target on a metric no run can report is an input error before anything runs")
{
  const auto o = run_acmesim(plan(plan_file("typo.yaml", "  - {metric: wait_s.all.mena, at_most: 0}\n"), "typo"));
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("wait_s.all.mena") && Catch::Contains("did you mean wait_s.all.mean?"));
  CHECK_FALSE(fs::exists(scratch() / "typo" / "points"));
}

TEST_CASE("plan: a target on a metric these runs do not report stops the plan, exit 2, naming it")
{
  fs::create_directories(scratch() / "no-mllm");
  write_scratch_file("no-mllm/plan.json", "{\"answer\": \"of an earlier plan\"}\n");
  const auto o =
      run_acmesim(plan(plan_file("no-mllm.yaml", "  - {metric: wait_s.by_type.MLLM.mean, at_most: 0}\n"), "no-mllm"));
  CHECK(o.exit_code == 2);
  CHECK_FALSE(fs::exists(scratch() / "no-mllm" / "plan.json"));
  CHECK_THAT(o.err, Catch::Contains("wait_s.by_type.MLLM.mean") &&
                        Catch::Contains("it reports: makespan_s, wait_s.all.mean") && Catch::Contains("--resume"));
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
  CHECK_THAT(o.err, Catch::Contains("cluster.nodes") && Catch::Contains("nothing was simulated"));
  CHECK_FALSE(fs::exists(scratch() / "bad-value" / "points"));
}
