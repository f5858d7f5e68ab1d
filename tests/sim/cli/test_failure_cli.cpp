// Failures, checkpoints and recovery from the command line: determinism, replay of a recorded
// failure list, and refusal of bad failure input with exit code 2.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;

namespace {

// Seren for a week, failures ten times as frequent as the defaults so that a short run sees
// many of them, checkpointed pretraining.
std::string scenario_with(const std::string& failures, const std::string& recovery = "manual")
{
  return "name: ft\nseed: 5\ncluster: {preset: seren}\nworkload: {synthetic: {preset: seren, days: 7}}\n"
         "scheduler: {name: easy-backfill}\n" +
         failures + "checkpoint: {mode: sync, interval_s: 1800}\nrecovery: {name: " + recovery + "}\n";
}

const std::string FREQUENT_FAILURES = "failures:\n  model: acme\n  lemon_nodes: 3\n  components:\n"
                                      "    node: {tbf: {dist: exponential, mean_h: 2000}}\n";

std::string run_to(const fs::path& scenario, const std::string& out, const std::string& extra = "")
{
  const auto o = run_acmesim("run '" + scenario.string() + "' --quiet --out '" + (scratch() / out).string() + "' " +
                             extra);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  return slurp(scratch() / out / "jobs.csv");
}

} // namespace

TEST_CASE("cli: a run with failures is byte-identical for the same seed and differs for another")
{
  const auto s = write_scratch_file("ft.yaml", scenario_with(FREQUENT_FAILURES));
  const std::string a = run_to(s, "a");
  const std::string b = run_to(s, "b");
  CHECK(a == b);
  CHECK(slurp(scratch() / "a" / "summary.json") == slurp(scratch() / "b" / "summary.json"));
  CHECK(slurp(scratch() / "a" / "failures.csv") == slurp(scratch() / "b" / "failures.csv"));
  const std::string failures = slurp(scratch() / "a" / "failures.csv");
  CHECK(std::count(failures.begin(), failures.end(), '\n') > 5); // the header and several failures
  run_to(s, "c", "--seed 6");
  CHECK(slurp(scratch() / "a" / "failures.csv") != slurp(scratch() / "c" / "failures.csv"));
}

TEST_CASE("cli: every queue scheduler runs with failures and checkpoints, every GPU-second in the ledger")
{
  const std::string one_day = "name: ft\nseed: 5\ncluster: {preset: seren}\n"
                              "workload: {synthetic: {preset: seren, days: 1}}\n" +
                              FREQUENT_FAILURES +
                              "checkpoint: {mode: sync, interval_s: 1800}\nrecovery: {name: auto}\n";
  const auto s = write_scratch_file("every-scheduler.yaml", one_day);
  for (const std::string scheduler :
       {"fifo", "easy-backfill", "multifactor", "quota", "conservative-backfill", "las"}) {
    INFO(scheduler);
    run_to(s, scheduler, "--set scheduler.name=" + scheduler);
    const auto summary = nlohmann::json::parse(slurp(scratch() / scheduler / "summary.json"));
    // The GPU-hours of every state add up to Seren's GPUs x makespan.
    double states = 0;
    for (const auto& [state, hours] : summary["gpu_hours"].items())
      if (state != "total")
        states += hours.get<double>();
    CHECK(states == Approx(2288 * summary["makespan_s"].get<double>() / 3600));
    CHECK(summary["failures"]["job_interruptions"].get<int>() > 0);
  }
}

TEST_CASE("cli: the failures a run applied replay exactly as a recorded list")
{
  for (const std::string recovery : {"manual", "auto+spares"}) {
    const auto modelled = write_scratch_file("model-" + recovery + ".yaml", scenario_with(FREQUENT_FAILURES, recovery));
    const std::string jobs = run_to(modelled, "model-" + recovery);
    const fs::path list = scratch() / ("model-" + recovery) / "failures.csv";
    const auto recorded = write_scratch_file("recorded-" + recovery + ".yaml",
                                             scenario_with("failures: {recorded: '" + list.string() + "'}\n", recovery));
    INFO(recovery);
    CHECK(run_to(recorded, "recorded-" + recovery) == jobs);
    CHECK(slurp(scratch() / ("recorded-" + recovery) / "failures.csv") == slurp(list));
    // The failures did interrupt jobs.
    CHECK(slurp(scratch() / ("model-" + recovery) / "summary.json").find("\"job_interruptions\": 0,") ==
          std::string::npos);
  }
}

TEST_CASE("cli: malformed failure lists and impossible failure parameters exit with code 2")
{
  const auto list = write_scratch_file("bad-failures.csv", "time_s,component,target,category,repair_s\n"
                                                           "100,node,seren-n1,node_failure,60\n"
                                                           "-5,node,seren-n1,node_failure,60\n"
                                                           "200,switch,seren-n1,node_failure,60\n");
  const auto s = write_scratch_file("bad.yaml", scenario_with("failures: {recorded: '" + list.string() + "'}\n"));
  const auto o = run_acmesim("run '" + s.string() + "' --out '" + (scratch() / "bad").string() + "'");
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("bad-failures.csv:3") != std::string::npos);
  CHECK(o.err.find("bad-failures.csv:4") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch() / "bad" / "summary.json"));

  const auto good = write_scratch_file("good.yaml", scenario_with(FREQUENT_FAILURES));
  for (const std::string bad : {"failures.components.node.tbf.mean_h=-3", "checkpoint.interval_s=0",
                                "recovery.person_delay_s=-1", "recovery.spare_nodes=1000"}) {
    INFO(bad);
    const auto r = run_acmesim("validate '" + good.string() + "' --set " + bad + " --set recovery.name=" +
                               (bad.find("spare") != std::string::npos ? "auto+spares" : "manual"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(bad.substr(0, bad.find('='))) != std::string::npos);
  }
}

TEST_CASE("cli: a fixed checkpoint interval shorter than a training step is raised to one step, with a warning")
{
  // A 277B model on 8 GPUs takes over an hour a step at the default throughput model.
  write_scratch_file("big_model_trace.csv", "job_id,user,gpu_num,type,state,submit_time,duration\n"
                                            "big,u,8,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,20000\n");
  const std::string scenario =
      write_scratch_file("big-model.yaml", "cluster: {nodes: 1, gpus_per_node: 8, fabric: {nodes_per_leaf: 1}}\n"
                                           "workload: {trace: big_model_trace.csv}\n"
                                           "checkpoint: {interval: fixed, interval_s: 3400,\n"
                                           "             model_sizes: [{max_gpus: 8, params_b: 277}]}\n")
          .string();
  const auto o = run_acmesim("run '" + scenario + "' --out '" + (scratch() / "big-model").string() + "'");
  CHECK(o.exit_code == 0);
  CHECK_THAT(o.err, Catch::Contains("checkpoint.interval_s 3400 s is shorter than one training step of 1 jobs") &&
                        Catch::Contains("on 8 GPUs"));
}
