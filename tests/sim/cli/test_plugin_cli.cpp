// Scheduler plugins through the real binary: a C++ plugin runs like the built-in policy it
// imitates, is deterministic, is echoed in summary.json; a plugin that cannot be used is bad input
// (exit 2, found by validate); one that throws or decides the impossible stops the run (exit 1)
// with a message naming it, the time and the decision, and leaves no results.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;

namespace {

// Two nodes of 8 GPUs. a takes both until 100; b and c take one each from 100 (c for 200 s);
// under first come first served d (1 GPU) waits for b's node: 150 to 200.
const std::string TRACE = "job_id,user,gpu_num,type,state,submit_time,duration\n"
                          "a,u,16,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,100\n"
                          "b,u,8,SFT,COMPLETED,2023-03-01 00:00:10+00:00,50\n"
                          "c,u,8,Other,COMPLETED,2023-03-01 00:00:20+00:00,200\n"
                          "d,u,1,Eval,COMPLETED,2023-03-01 00:00:30+00:00,50\n";

std::string scenario(const std::string& scheduler)
{
  write_scratch_file("plugin_trace.csv", TRACE);
  return write_scratch_file("plugin-" + std::to_string(std::hash<std::string>{}(scheduler)) + ".yaml",
                            "cluster: {nodes: 2, gpus_per_node: 8, fabric: {nodes_per_leaf: 2}}\n"
                            "workload: {trace: plugin_trace.csv}\n"
                            "network: {model: off}\n"
                            "scheduler: " + scheduler + "\n")
      .string();
}

acmesim::testing::CliOutcome run_into(const std::string& scheduler, const std::string& out)
{
  return run_acmesim("run '" + scenario(scheduler) + "' --quiet --out '" + (scratch() / out).string() + "'");
}

const std::string PLUGIN = std::string("{plugin: ") + test_scheduler_plugin_PATH;

} // namespace

TEST_CASE("a C++ plugin runs as the built-in policy it imitates, deterministically, and is echoed")
{
  REQUIRE(run_into("{name: fifo}", "builtin").exit_code == 0);
  const auto plugin = run_into(PLUGIN + "}", "plugin");
  INFO(plugin.err);
  REQUIRE(plugin.exit_code == 0);
  const std::string jobs = slurp(scratch() / "plugin" / "jobs.csv");
  CHECK(jobs == slurp(scratch() / "builtin" / "jobs.csv"));
  CHECK(jobs.find("\nd,Eval,u,1,1,0,30.000,150.000,200.000,120.000,170.000,COMPLETED,") != std::string::npos);
  REQUIRE(run_into(PLUGIN + "}", "again").exit_code == 0);
  CHECK(slurp(scratch() / "again" / "jobs.csv") == jobs);
  const auto summary = nlohmann::json::parse(slurp(scratch() / "plugin" / "summary.json"));
  CHECK(summary["scenario"]["scheduler"]["plugin"] == test_scheduler_plugin_PATH);
  CHECK(summary["scenario"]["scheduler"]["name"] == "test-fifo");
  CHECK(summary["scenario"]["scheduler"]["params"]["mode"] == 0);
}

TEST_CASE("a plugin that cannot be used is bad input, found by validate")
{
  const auto missing = run_acmesim("validate '" + scenario("{plugin: no/such/plugin.so}") + "'");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("scheduler.plugin") != std::string::npos);
  CHECK(missing.err.find("no such file") != std::string::npos);

  const auto not_a_library = run_acmesim("validate '" + scenario("{plugin: plugin_trace.csv}") + "'");
  CHECK(not_a_library.exit_code == 2);
  CHECK(not_a_library.err.find("cannot be loaded") != std::string::npos);

  const auto old = run_acmesim("validate '" + scenario(std::string("{plugin: ") + test_old_plugin_PATH + "}") + "'");
  CHECK(old.exit_code == 2);
  CHECK(old.err.find("built against scheduler interface version 4, and this acmesim has version 3") !=
        std::string::npos);

  const auto unknown = run_acmesim("validate '" + scenario(PLUGIN + ", params: {depth: 3}}") + "'");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("scheduler.params.depth") != std::string::npos);
  CHECK(unknown.err.find("not a parameter of scheduler plugin 'test-fifo'; it accepts: mode") != std::string::npos);

  const auto range = run_acmesim("validate '" + scenario(PLUGIN + ", params: {mode: 7}}") + "'");
  CHECK(range.exit_code == 2);
  CHECK(range.err.find("scheduler.params.mode") != std::string::npos);

  const auto renamed = run_acmesim("validate '" + scenario(PLUGIN + ", name: fifo}") + "'");
  CHECK(renamed.exit_code == 2);
  CHECK(renamed.err.find("the plugin names itself 'test-fifo'") != std::string::npos);

  CHECK(run_acmesim("validate '" + scenario(PLUGIN + ", params: {mode: 1}}") + "'").exit_code == 0);
}

TEST_CASE("a plugin broken at its entry points or in its parameter declarations is bad input, saying which fault")
{
  const auto validate = [](const char* path) {
    return run_acmesim("validate '" + scenario(std::string("{plugin: ") + path + "}") + "'");
  };
  const auto no_version = validate(test_broken_plugin_no_version_PATH);
  CHECK(no_version.exit_code == 2);
  CHECK_THAT(no_version.err, Catch::Contains("defines no acmesim_scheduler_api_version") &&
                                 !Catch::Contains("defines no acmesim_scheduler_plugin"));

  const auto throws = validate(test_broken_plugin_throws_PATH);
  CHECK(throws.exit_code == 2);
  CHECK_THAT(throws.err, Catch::Contains("threw from its entry point: the broken plugin cannot make itself"));

  const auto declared = validate(test_broken_plugin_bad_params_PATH);
  CHECK(declared.exit_code == 2);
  CHECK_THAT(declared.err, Catch::Contains("the scheduler plugin declares its parameters wrongly: parameter 'window': "
                                           "min 100 is above max 5; parameter 'ratio': default is nan, not a "
                                           "finite number; parameter 'depth': an integer parameter with the default "
                                           "1.5; parameter 'depth': declared more than once"));
}

TEST_CASE("a plugin asking the view for a job that does not exist, or whose factory makes nothing, stops the run "
          "naming itself")
{
  const auto no_job = run_into(PLUGIN + ", params: {mode: 3}}", "no-job");
  CHECK(no_job.exit_code == 1);
  CHECK_THAT(no_job.err, Catch::Contains("test-fifo") &&
                             Catch::Contains("job id 99999999 is not a job of this run (ids are 0 to 3)") &&
                             !Catch::Contains("internal error"));
  CHECK_FALSE(std::filesystem::exists(scratch() / "no-job" / "summary.json"));

  const auto nothing = run_into(PLUGIN + ", params: {mode: 4}}", "nothing");
  CHECK(nothing.exit_code == 1);
  CHECK_THAT(nothing.err, Catch::Contains("(test-fifo): its factory returned no scheduler (a null pointer)") &&
                              !Catch::Contains("internal error"));
}

TEST_CASE("a plugin that throws or decides the impossible stops the run, naming itself, the time and the decision")
{
  const auto thrown = run_into(PLUGIN + ", params: {mode: 1}}", "thrown");
  CHECK(thrown.exit_code == 1);
  CHECK(thrown.err.find("test-fifo") != std::string::npos);
  CHECK(thrown.err.find("failed at simulated time 100.000 s: the test plugin gives up at 100 s") != std::string::npos);
  CHECK(thrown.err.find("internal error") == std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch() / "thrown" / "summary.json"));
  CHECK_FALSE(std::filesystem::exists(scratch() / "thrown" / "jobs.csv"));

  // Every job on node 0: a asks for 16 GPUs, two nodes' worth.
  const auto careless = run_into(PLUGIN + ", params: {mode: 2}}", "careless");
  CHECK(careless.exit_code == 1);
  CHECK(careless.err.find("at simulated time 0.000 s: start job a (id 0) with an allocation of 1 nodes instead of 2") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch() / "careless" / "summary.json"));
}

namespace {

const std::string POLICY =
    std::string("{python: ") + ACMESIM_SOURCE_DIR + "/tests/sim/plugins/fixtures/test_policy.py, class: ";

} // namespace

TEST_CASE("a Python policy runs as the built-in policy it imitates, keeps its state, deterministically")
{
  REQUIRE(run_into("{name: fifo}", "py-builtin").exit_code == 0);
  const auto python = run_into(POLICY + "Fifo}", "python");
  INFO(python.err);
  REQUIRE(python.exit_code == 0);
  const std::string jobs = slurp(scratch() / "python" / "jobs.csv");
  CHECK(jobs == slurp(scratch() / "py-builtin" / "jobs.csv"));
  REQUIRE(run_into(POLICY + "Fifo}", "python-again").exit_code == 0);
  CHECK(slurp(scratch() / "python-again" / "jobs.csv") == jobs);
  const auto summary = nlohmann::json::parse(slurp(scratch() / "python" / "summary.json"));
  CHECK(summary["scenario"]["scheduler"]["name"] == "py-fifo");
  CHECK(summary["scenario"]["scheduler"]["class"] == "Fifo");
  CHECK(summary["scenario"]["scheduler"]["params"]["mode"] == 0);
  // The state it keeps across calls: the fifth call is the one at 100 s (0, 10, 20, 30, 100).
  const auto raised = run_into(POLICY + "Fifo, params: {mode: 1}}", "py-raised");
  CHECK(raised.exit_code == 1);
  CHECK(raised.err.find("python") != std::string::npos);
  CHECK(raised.err.find("(Fifo) failed at simulated time 100.000 s: Traceback (most recent call last):") !=
        std::string::npos);
  CHECK(raised.err.find("RuntimeError: giving up after 5 calls") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch() / "py-raised" / "summary.json"));
}

TEST_CASE("a Python policy's impossible decisions and stale views raise where they are made")
{
  const auto twice = run_into(POLICY + "Fifo, params: {mode: 2}}", "py-twice");
  CHECK(twice.exit_code == 1);
  CHECK(twice.err.find("at simulated time 0.000 s") != std::string::npos);
  CHECK(twice.err.find("view.start(job, allocation)") != std::string::npos); // the traceback's line
  CHECK(twice.err.find("ValueError: job 0 was already started in this call") != std::string::npos);

  const auto stale = run_into(POLICY + "Fifo, params: {mode: 3}}", "py-stale");
  CHECK(stale.exit_code == 1);
  CHECK(stale.err.find("the view is valid only during the decide call it was given to") != std::string::npos);
}

TEST_CASE("a Python policy that cannot be used is bad input, found by validate")
{
  const std::string dir = std::string(ACMESIM_SOURCE_DIR) + "/tests/sim/plugins/fixtures/";
  const auto missing = run_acmesim("validate '" + scenario("{python: no_such_policy.py, class: X}") + "'");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("scheduler.python") != std::string::npos);
  CHECK(missing.err.find("no such file") != std::string::npos);

  const auto no_class = run_acmesim("validate '" + scenario(POLICY + "Nope}") + "'");
  CHECK(no_class.exit_code == 2);
  CHECK(no_class.err.find("defines no class Nope") != std::string::npos);

  const auto no_decide = run_acmesim("validate '" + scenario(POLICY + "NoDecide}") + "'");
  CHECK(no_decide.exit_code == 2);
  CHECK(no_decide.err.find("no decide(self, view, events) method") != std::string::npos);

  const auto bad_params = run_acmesim("validate '" + scenario(POLICY + "BadParams}") + "'");
  CHECK(bad_params.exit_code == 2);
  CHECK(bad_params.err.find("its name or params are not what docs/writing-a-scheduler.md describes") != std::string::npos);

  const auto syntax = write_scratch_file("broken_policy.py", "class P:\n    def decide(self, view, events)\n");
  const auto broken = run_acmesim("validate '" + scenario("{python: " + syntax.string() + ", class: P}") + "'");
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("SyntaxError") != std::string::npos);

  const auto no_class_key = run_acmesim("validate '" + scenario("{python: " + dir + "test_policy.py}") + "'");
  CHECK(no_class_key.exit_code == 2);
  CHECK(no_class_key.err.find("scheduler.class") != std::string::npos);

  const auto range = run_acmesim("validate '" + scenario(POLICY + "Fifo, params: {mode: 11}}") + "'");
  CHECK(range.exit_code == 2);
  CHECK(range.err.find("scheduler.params.mode") != std::string::npos);

  const auto declared = run_acmesim("validate '" + scenario(POLICY + "BadDeclarations}") + "'");
  CHECK(declared.exit_code == 2);
  CHECK_THAT(declared.err, Catch::Contains("the Python policy declares its parameters wrongly: parameter 'window': "
                                           "min 100 is above max 5; parameter 'ratio': default is nan, not a "
                                           "finite number; parameter 'depth': an integer parameter with the default "
                                           "1.5"));
  const auto unknown_key = run_acmesim("validate '" + scenario(POLICY + "UnknownKey}") + "'");
  CHECK(unknown_key.exit_code == 2);
  CHECK_THAT(unknown_key.err, Catch::Contains("parameter 'depth' declares 'dflt', which is not one of default, min, "
                                              "max, integer, help"));
}

TEST_CASE("a policy stuck in a loop is stopped by scheduler.decision_limit_s, naming it and the simulated time")
{
  const auto stuck = run_into(POLICY + "Fifo, params: {mode: 10}, decision_limit_s: 0.5}", "stuck");
  CHECK(stuck.exit_code == 1);
  CHECK_THAT(stuck.err, Catch::Contains("error: scheduler 'py-fifo' took more than 0.5 s of wall time over one "
                                        "decision at simulated time 100.000 s (scheduler.decision_limit_s)"));
  CHECK_FALSE(std::filesystem::exists(scratch() / "stuck" / "summary.json"));
  CHECK(std::filesystem::exists(scratch() / "stuck" / "INCOMPLETE"));
  // Under the limit, the same policy's calls are not bounded by it.
  CHECK(run_into(POLICY + "Fifo, decision_limit_s: 0.5}", "quick").exit_code == 0);
}

TEST_CASE("a Python policy sees which links of a ring across three-tier blocks run to the core")
{
  // Eight Seren nodes, two to a leaf, two leaves a block: a 64-GPU job takes all of them, and its
  // ring crosses from block 0 to block 1 and back over both blocks' pooled core cables. Mode 4
  // raises, at the next call, naming the links the view marks `core`.
  write_scratch_file("core_trace.csv", "job_id,user,gpu_num,type,state,submit_time,duration\n"
                                       "a,u,64,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,1000\n"
                                       "d,u,1,Eval,COMPLETED,2023-03-01 00:01:40+00:00,50\n");
  const auto scenario = write_scratch_file(
      "core.yaml", "cluster: {preset: seren, nodes: 8, storage_nics: 1, fabric: {leaf_radix: 4, nodes_per_leaf: 2, "
                   "nodes_per_block: 4, core_oversubscription: 2}}\n"
                   "workload: {trace: core_trace.csv}\n"
                   "network: {model: flows}\n"
                   "scheduler: " + POLICY + "Fifo, params: {mode: 4}}\n");
  const auto o = run_acmesim("run '" + scenario.string() + "' --quiet --out '" + (scratch() / "py-core").string() + "'");
  CHECK(o.exit_code == 1);
  CHECK(o.err.find("RuntimeError: core links: seren-block0-core_DOWN,seren-block0-core_UP,seren-block1-core_DOWN,"
                   "seren-block1-core_UP\n") != std::string::npos);
}

TEST_CASE("a Python policy lists the running jobs with their estimated ends under the run's estimate model")
{
  // a runs 0-100; b and c start at 100; at 150 b has ended: c (job 2, 200 s) runs, estimated to
  // end at 100 + 1.5 x 200, and d (job 3, 50 s) waits, estimated at 75 s (the trace records no
  // requested time: -1).
  write_scratch_file("plugin_trace.csv", TRACE);
  const auto scenario = write_scratch_file(
      "estimates.yaml", "cluster: {nodes: 2, gpus_per_node: 8, fabric: {nodes_per_leaf: 2}}\n"
                        "workload: {trace: plugin_trace.csv, estimates: factor, estimate_factor: 1.5}\n"
                        "network: {model: off}\n"
                        "scheduler: " + POLICY + "Fifo, params: {mode: 7}}\n");
  const auto o = run_acmesim("run '" + scenario.string() + "' --quiet --out '" + (scratch() / "py-est").string() + "'");
  CHECK(o.exit_code == 1);
  CHECK(o.err.find("RuntimeError: running: 2 from 100 to 400 on [(1, 8)]; estimates: {'model': 'factor', "
                   "'factor': 1.5}; queued 3 estimated 75 s, requested -1 s\n") != std::string::npos);
}

TEST_CASE("a Python policy asking to be woken at NaN is told so, not silently ignored")
{
  const auto o = run_into(POLICY + "Fifo, params: {mode: 8}}", "py-nan");
  CHECK(o.exit_code == 1);
  CHECK(o.err.find("wake_at needs a time in seconds, not NaN") != std::string::npos);
}

TEST_CASE("a policy that never starts a job stalls the run: exit 1 naming it and the jobs, partial results marked")
{
  // Mode 6 never starts a job of more than 8 GPUs: a (16 GPUs) is left queued when b, c and d end.
  const auto o = run_into(POLICY + "Fifo, params: {mode: 6}}", "py-stalled");
  CHECK(o.exit_code == 1);
  INFO(o.err);
  CHECK(o.err.find("error: scheduler 'py-fifo' stalled: at ") != std::string::npos);
  CHECK(o.err.find("but 1 queued job (16 GPUs in all), which it never started: a (16 GPUs, Pretrain, submitted at "
                   "0 s).") != std::string::npos);
  const auto dir = scratch() / "py-stalled";
  CHECK(o.err.find("partial results are in " + dir.string() + "/ (INCOMPLETE says why)") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "summary.json"));
  CHECK(slurp(dir / "INCOMPLETE").find("scheduler 'py-fifo' stalled") == 0);
  const std::string jobs = slurp(dir / "jobs.csv");
  CHECK(jobs.find("\na,Pretrain,u,16,0,") != std::string::npos);
  CHECK(jobs.find(",,,,STALLED,") != std::string::npos);
  CHECK(jobs.find(",COMPLETED,") != std::string::npos); // b, c and d ran

  // A later run into the same directory that finishes leaves no INCOMPLETE behind.
  REQUIRE(run_acmesim("run '" + scenario(POLICY + "Fifo}") + "' --quiet --out '" + dir.string() + "'").exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "INCOMPLETE"));
  CHECK(std::filesystem::exists(dir / "summary.json"));
}

TEST_CASE("a Python policy whose decide() returns its decisions instead of making them is told so")
{
  const auto o = run_into(POLICY + "Fifo, params: {mode: 5}}", "py-returned");
  CHECK(o.exit_code == 1);
  CHECK(o.err.find("(Fifo) failed at simulated time 0.000 s: decide() returned a list, not None: a policy acts "
                   "through the view") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch() / "py-returned" / "summary.json"));
}
