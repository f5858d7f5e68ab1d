// The `workload:` section: traces, the synthetic workload by hand and the calibrated generator.
#include "sim/config/WorkloadLoader.hpp"
#include "sim/config/WorkloadSection.hpp"
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace acmesim;
using namespace acmesim::testing;
using Catch::Contains;
using Catch::StartsWith;

TEST_CASE("job states: missing ones count as 0")
{
  const Scenario s = load(SEREN + WORKLOAD + "        states: {COMPLETED: 0.75, NODE_FAIL: 0.25}\n");
  CHECK(s.workload.synthetic->types[0].state_shares == std::array<double, 5>{0.75, 0, 0, 0, 0.25});
}

TEST_CASE("a bad empirical table is reported with the table checker's reason")
{
  SECTION("cdf not ending at 1")
  {
    const Diagnostic d =
        single_error(SEREN + WORKLOAD, {"workload.synthetic.types.Eval.gpus.cdf=[0.5, 0.6, 0.7, 0.8]"});
    CHECK(d.key == "workload.synthetic.types.Eval.gpus");
    CHECK(d.value == "<map>");
    CHECK_FALSE(d.message.empty());
  }
  SECTION("values and cdf of different lengths, in the file")
  {
    const Diagnostic d =
        single_error(SEREN + WORKLOAD + "        cpus_per_gpu: 8\n      Debug:\n        arrivals_per_hour: 1\n"
                                        "        gpus: {values: [8, 16], cdf: [1]}\n"
                                        "        duration_s: {values: [60], cdf: [1]}\n");
    CHECK(d.key == "workload.synthetic.types.Debug.gpus");
    CHECK(d.where == "test.yaml:15:15");
  }
  SECTION("a GPU count that is not an integer, a duration that is not positive, a missing cdf")
  {
    const auto errors = errors_of(SEREN + WORKLOAD, {"workload.synthetic.types.Eval.gpus.values=[1, 2.5, 4, 8]",
                                                     "workload.synthetic.types.Eval.duration_s={values: [-1, 2, 3]}"});
    REQUIRE(errors.size() == 3);
    CHECK(errors[0].key == "workload.synthetic.types.Eval.gpus.values.1");
    CHECK(errors[0].message == "expected an integer between 0 and 1000000");
    CHECK(errors[1].key == "workload.synthetic.types.Eval.duration_s.cdf");
    CHECK(errors[1].message == "missing required key");
    CHECK(errors[2].key == "workload.synthetic.types.Eval.duration_s.values.0");
    CHECK(errors[2].message == "expected a number between 0.001 and 1000000000");
  }
}

TEST_CASE("a missing trace file names the key, the path as written and the resolved path")
{
  const Diagnostic d = single_error(SEREN + "workload:\n  trace: traces/nope.csv\n");
  CHECK(d.where == "test.yaml:4:10");
  CHECK(d.key == "workload.trace");
  CHECK(d.value == "traces/nope.csv");
  CHECK_THAT(d.message, Contains(DATA_DIR + "/traces/nope.csv"));
}

TEST_CASE("the workload needs exactly one of trace and synthetic")
{
  const Diagnostic both = single_error(SEREN + WORKLOAD + "  trace: tiny.csv\n");
  CHECK(both.key == "workload");
  CHECK_THAT(both.message, Contains("exactly one"));

  const Diagnostic neither = single_error(SEREN + "workload: {on_bad_row: skip}\n");
  CHECK(neither.key == "workload");
  CHECK_THAT(neither.message, Contains("workload.trace") && Contains("workload.synthetic"));
  // on_bad_row is not reported on top: without a trace it would be noise.

  const Diagnostic missing = single_error(SEREN);
  CHECK(missing.key == "workload");
  CHECK(missing.message == "missing required key");

  const Diagnostic no_cluster = single_error(WORKLOAD);
  CHECK(no_cluster.key == "cluster");
}

TEST_CASE("state shares must be known states summing to 1")
{
  const Diagnostic sum = single_error(SEREN + WORKLOAD + "        states: {COMPLETED: 0.5, FAILED: 0.3}\n");
  CHECK(sum.key == "workload.synthetic.types.Eval.states");
  CHECK(sum.where == "test.yaml:12:17");
  CHECK_THAT(sum.message, Contains("sum to 1") && Contains("0.8"));

  const Diagnostic unknown = single_error(SEREN + WORKLOAD + "        states: {COMPLETED: 0.5, RUNNING: 0.5}\n");
  CHECK(unknown.key == "workload.synthetic.types.Eval.states.RUNNING");
  CHECK_THAT(unknown.message, Contains("COMPLETED") && Contains("NODE_FAIL"));
}

TEST_CASE("a trace path is resolved against the scenario file's directory")
{
  const std::string path = DATA_DIR + "/with-trace.yaml";
  const Scenario s = load_scenario_file(path);
  CHECK(s.name == "with-trace");
  CHECK(s.source == path);
  REQUIRE(s.workload.trace);
  CHECK_FALSE(s.workload.synthetic);
  CHECK(std::filesystem::path(s.workload.trace->path) == std::filesystem::path(DATA_DIR) / "tiny.csv");
  CHECK(s.workload.trace->format == TraceFormat::Acme);
  CHECK(s.workload.trace->on_bad_row == BadRowPolicy::Skip);
  CHECK(s.cluster.pods[0].nodes == 286);

  // The same text elsewhere does not find the trace, and says where it looked.
  try {
    load_scenario_text(SEREN + "workload: {trace: tiny.csv}\n", "elsewhere.yaml", ACMESIM_SOURCE_DIR);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK_THAT(e.diagnostics()[0].message, Contains(std::string(ACMESIM_SOURCE_DIR) + "/tiny.csv"));
  }
}

TEST_CASE("a trace's format is named or told by its file name")
{
  const std::string dir = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces";
  const auto trace = [&](const std::string& body) {
    return load_scenario_text(SEREN + "workload:\n" + body, "fmt.yaml", dir);
  };
  CHECK(trace("  trace: pwa_small.swf\n").workload.trace->format == TraceFormat::Swf);
  CHECK(trace("  trace: philly_small.json\n").workload.trace->format == TraceFormat::Philly);
  CHECK(trace("  trace: seren_small.csv\n").workload.trace->format == TraceFormat::Acme);
  CHECK(trace("  trace: seren_small.csv\n  format: helios\n").workload.trace->format == TraceFormat::Helios);
  try {
    trace("  trace: ../scenarios/tiny.csv\n  format: parquet\n");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].key == "workload.format");
    CHECK_THAT(e.diagnostics()[0].message, Contains("swf"));
  }
}

TEST_CASE("synthetic: {preset: ...} selects the generator calibrated to Acme, with its knobs")
{
  const Scenario s = load_scenario_text(SEREN + "workload:\n  synthetic: {preset: kalos, days: 12, eval_batch_mean: 5}\n",
                                        "preset.yaml", ACMESIM_SOURCE_DIR);
  REQUIRE(s.workload.acme_preset);
  CHECK_FALSE(s.workload.synthetic);
  CHECK(s.workload.acme_preset->preset == "kalos");
  CHECK(s.workload.acme_preset->generator.days == 12);
  CHECK(s.workload.acme_preset->generator.eval_batch_mean == 5);
  const auto errors =
      errors_of(SEREN + "workload:\n  synthetic: {preset: frontier, types: {}, campaign_busy_share: 2}\n", {});
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "workload.synthetic.types"); // unknown key next to a preset
  CHECK(errors[1].key == "workload.synthetic.preset");
  CHECK(errors[2].key == "workload.synthetic.campaign_busy_share");
}

TEST_CASE("workload.load_scale is read for every workload, echoed, and bounded")
{
  const std::string dir = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces";
  const Scenario trace =
      load_scenario_text(SEREN + "workload:\n  trace: pwa_small.swf\n  load_scale: 2.5\n", "scale.yaml", dir);
  CHECK(trace.workload.load_scale == 2.5);
  CHECK(section_echo(trace.workload)["load_scale"] == 2.5);
  const Scenario preset =
      load(SEREN + "workload:\n  synthetic: {preset: kalos, days: 2}\n", {"workload.load_scale=0.5"});
  CHECK(preset.workload.load_scale == 0.5);
  CHECK(load(SEREN + WORKLOAD).workload.load_scale == 1);

  for (const std::string bad : {"0", "-1", "101"}) {
    const Diagnostic d = single_error(SEREN + WORKLOAD, {"workload.load_scale=" + bad});
    CHECK(d.key == "workload.load_scale");
    CHECK(d.message == "expected a number between 0.01 and 100");
  }
  // The bound on generated jobs counts the scale.
  const Diagnostic d = single_error(SEREN + "workload:\n  synthetic: {preset: kalos, days: 3000, gpu_jobs_per_day: 10000}\n",
                                    {"workload.load_scale=100"});
  CHECK(d.key == "workload.synthetic");
  CHECK_THAT(d.message, Contains("at most 50,000,000"));
}

TEST_CASE("workload.estimates and estimate_factor: the run's estimate model, echoed; a factor needs estimates: factor")
{
  Job eighty;
  eighty.duration_s = 80;
  const Scenario plain = load(SEREN + WORKLOAD);
  CHECK(plain.workload.runtime_estimates().model == EstimateModel::Actual);
  CHECK(plain.workload.runtime_estimates().of(eighty) == 80);
  CHECK(section_echo(plain.workload)["estimates"] == "actual");

  const Scenario factor = load(SEREN + WORKLOAD, {"workload.estimates=factor", "workload.estimate_factor=2.5"});
  CHECK(factor.workload.runtime_estimates().of(eighty) == 200);
  CHECK(section_echo(factor.workload)["estimate_factor"] == 2.5);

  const Diagnostic alone = single_error(SEREN + WORKLOAD, {"workload.estimate_factor=2"});
  CHECK(alone.key == "workload.estimate_factor");
  CHECK(alone.message == "applies only with workload.estimates: factor");
  const Diagnostic below = single_error(SEREN + WORKLOAD, {"workload.estimates=factor", "workload.estimate_factor=0.5"});
  CHECK(below.key == "workload.estimate_factor");
  CHECK(below.message == "expected a number between 1 and 1000000");
}

TEST_CASE("workload.load_scale reaches the jobs: a trace replicated by the scenario seed, generated rates scaled")
{
  const std::string dir = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces";
  const auto jobs_at = [&](const std::string& scale) {
    return load_workload(load_scenario_text(SEREN + "workload:\n  trace: pwa_small.swf\n", "scale.yaml", dir,
                                            {"workload.load_scale=" + scale}))
        .jobs.size();
  };
  const std::size_t once = jobs_at("1");
  CHECK(jobs_at("3") == 3 * once);
  CHECK(jobs_at("0.01") < once);

  const auto generated = [&](const std::string& scale) {
    return load_workload(load(SEREN + WORKLOAD, {"workload.synthetic.days=20", "workload.load_scale=" + scale}))
        .jobs.size();
  };
  const double ratio = static_cast<double>(generated("2")) / static_cast<double>(generated("1"));
  CHECK(ratio == Approx(2).epsilon(0.1));
}
