// Scenario loading: the whole file, one diagnostic per problem with the right place, and the output section.
#include "sim/config/ScenarioKeys.hpp"
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;
using Catch::Contains;
using Catch::StartsWith;

// --- valid scenarios ---------------------------------------------------------------------

TEST_CASE("the embedded default scenario loads: Kalos under easy-backfill with its parameters filled in")
{
  const Scenario s = load_default_scenario();
  CHECK(s.name == "default");
  CHECK(s.source == "<embedded default>");
  CHECK(s.seed == 42);

  CHECK(s.cluster.name == "kalos");
  REQUIRE(s.cluster.pods.size() == 1);
  const PodSpec& pod = s.cluster.pods[0];
  CHECK(pod.name == "kalos");
  CHECK(pod.nodes == 302);
  CHECK(pod.gpus_per_node == 8);
  CHECK(pod.compute_nics == 4);
  CHECK(pod.storage_nics == 1);
  CHECK(pod.fabric.spine_radix == 800);
  CHECK(s.cluster.storage.bandwidth_GBps == 302);

  CHECK(s.scheduler.name == "easy-backfill");
  CHECK(s.scheduler.placement == "pack");
  const std::map<std::string, double> params{{"backfill_depth", 1000}};
  CHECK(s.scheduler.params == params);

  CHECK_FALSE(s.workload.trace);
  REQUIRE(s.workload.synthetic);
  const SyntheticSpec& syn = *s.workload.synthetic;
  CHECK(syn.days == 3);
  CHECK(syn.users == 60);
  REQUIRE(syn.types.size() == 5);
  // Canonical JobType order, whatever the file's order.
  CHECK(syn.types[0].type == JobType::Pretrain);
  CHECK(syn.types[1].type == JobType::Eval);
  CHECK(syn.types[4].type == JobType::Other);
  const SyntheticTypeSpec& eval = syn.types[1];
  CHECK(eval.arrivals_per_hour == 60);
  CHECK(eval.gpus.values == std::vector<double>{1, 2, 4, 8});
  CHECK(eval.gpus.cdf == std::vector<double>{0.85, 0.9, 0.95, 1.0});
  CHECK(eval.duration_s.values.size() == 5);
  CHECK(eval.state_shares == std::array<double, 5>{0.9, 0.07, 0.03, 0, 0});
  CHECK(eval.cpus_per_gpu == 16);
}

// --- one test per kind of error ----------------------------------------------------------

TEST_CASE("an unknown key is reported at its line with the valid keys")
{
  const Diagnostic d = single_error("cluster:\n"
                                    "  preset: seren\n"
                                    "  fabric:\n"
                                    "    leaf_radx: 40\n" +
                                    WORKLOAD);
  CHECK(d.where == "test.yaml:4:5");
  CHECK(d.key == "cluster.fabric.leaf_radx");
  CHECK_THAT(d.message, Contains("unknown key"));
  CHECK_THAT(d.message, Contains("leaf_radix") && Contains("spine_radix") && Contains("link_latency_us"));

  const Diagnostic top = single_error(SEREN + WORKLOAD + "schedular: {name: fifo}\n");
  CHECK(top.where == "test.yaml:12:1");
  CHECK(top.key == "schedular");
  CHECK_THAT(top.message, Contains("scheduler") && Contains("workload"));
}

TEST_CASE("a value of the wrong type is reported with where, key, value and what was expected")
{
  const Diagnostic d = single_error("cluster:\n  preset: seren\n  nodes: many\n" + WORKLOAD);
  CHECK(d.where == "test.yaml:3:10");
  CHECK(d.key == "cluster.nodes");
  CHECK(d.value == "many");
  CHECK(d.message == "expected an integer between 1 and 1000000");

  const Diagnostic days = single_error(SEREN + WORKLOAD, {"workload.synthetic.days=three"});
  CHECK(days.key == "workload.synthetic.days");
  CHECK(days.message == "expected a number between 0.001 and 3650");

  const Diagnostic list = single_error(SEREN + WORKLOAD, {"workload.synthetic.types.Eval.gpus.values={a: 1}"});
  CHECK(list.key == "workload.synthetic.types.Eval.gpus.values");
  CHECK(list.value == "<map>");
  CHECK_THAT(list.message, StartsWith("expected a list"));
}

TEST_CASE("out-of-range values are reported")
{
  const auto errors = errors_of("cluster:\n"
                                "  preset: seren\n"
                                "  storage_nics: -1\n"
                                "  fabric: {oversubscription: 0}\n" +
                                WORKLOAD + "scheduler: {name: easy-backfill, backfill_depth: 0.5}\n");
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "cluster.storage_nics");
  CHECK(errors[0].value == "-1");
  CHECK(errors[0].message == "expected an integer between 0 and 64");
  CHECK(errors[1].key == "cluster.fabric.oversubscription");
  CHECK(errors[1].where == "test.yaml:4:30");
  CHECK(errors[1].message == "expected a number between 0.01 and 1000");
  CHECK(errors[2].key == "scheduler.backfill_depth");
  CHECK(errors[2].value == "0.5");
  CHECK(errors[2].message == "expected an integer between 1 and 1000000000");
}

TEST_CASE("a non-integer where an integer is expected is reported")
{
  const auto errors =
      errors_of("cluster:\n  preset: seren\n  gpus_per_node: 2.5\n" + WORKLOAD + "scheduler: {name: easy-backfill}\n",
                {"scheduler.backfill_depth=10.5", "workload.synthetic.users=1e-3"});
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "cluster.gpus_per_node");
  CHECK(errors[0].value == "2.5");
  CHECK(errors[0].message == "expected an integer between 1 and 64");
  CHECK(errors[1].key == "workload.synthetic.users");
  CHECK(errors[2].key == "scheduler.backfill_depth");
  CHECK(errors[2].message == "expected an integer between 1 and 1000000000");
}

TEST_CASE("an empty scenario reports the sections it needs")
{
  const auto errors = errors_of("# nothing yet\n");
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].where == "test.yaml");
  CHECK(errors[0].key == "cluster");
  CHECK(errors[1].key == "workload");
}

TEST_CASE("a YAML syntax error is one diagnostic at its line")
{
  const Diagnostic d = single_error("cluster:\n  preset: seren\n  fabric: {leaf_radix: 40\nworkload: {}\n");
  CHECK_THAT(d.where, StartsWith("test.yaml:4:"));
  CHECK_THAT(d.message, StartsWith("YAML syntax error"));

  const Diagnostic dup = single_error(SEREN + "  preset: kalos\n" + WORKLOAD);
  CHECK(dup.key == "cluster.preset");
  CHECK(dup.where == "test.yaml:3:3");
  CHECK_THAT(dup.message, Contains("duplicate key") && Contains("test.yaml:2:3"));
}

TEST_CASE("every problem of a file is reported in one InputError")
{
  const auto errors = errors_of("cluster:\n"
                                "  preset: seren\n"
                                "  nodez: 4\n"
                                "  gpus_per_node: 0\n"
                                "workload:\n"
                                "  synthetic:\n"
                                "    days: 0\n"
                                "    types:\n"
                                "      Eval:\n"
                                "        arrivals_per_hour: -1\n"
                                "        gpus: {values: [1, 2], cdf: [0.5, 0.9]}\n"
                                "scheduler: {name: sjf, placement: best}\n"
                                "seed: -5\n");
  CHECK(errors.size() == 9);
  for (const char* key : {"cluster.nodez", "cluster.gpus_per_node", "workload.synthetic.days",
                          "workload.synthetic.types.Eval.arrivals_per_hour", "workload.synthetic.types.Eval.gpus",
                          "workload.synthetic.types.Eval.duration_s", "scheduler.name", "scheduler.placement", "seed"})
    CHECK(has_key(errors, key));
  // The exception's text lists them all, one per line.
  try {
    load("cluster: {nodes: 0}\nworkload: {}\n");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "test.yaml:1:18: key 'cluster.nodes', value '0': expected an integer between 1 and 1000000\n"
                                   "test.yaml:2:11: key 'workload': expected workload.trace (a job trace file) or "
                                   "workload.synthetic (generator settings)");
  }
}

TEST_CASE("a scenario file that cannot be opened is an InputError naming it")
{
  const std::string path = DATA_DIR + "/no-such-scenario.yaml";
  try {
    load_scenario_file(path);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].where == path);
  }
}

TEST_CASE("scenario names must be plain directory names")
{
  const Diagnostic d = single_error("name: ../../escape\n" + SEREN + WORKLOAD);
  CHECK(d.key == "name");
  CHECK(d.value == "../../escape");
  CHECK_THAT(d.message, Contains("results directory"));
  // A default name taken from an odd file name is made safe instead of refused.
  const Scenario s = load_scenario_text(SEREN + WORKLOAD, "my scenario.yaml", ACMESIM_SOURCE_DIR);
  CHECK(s.name == "my_scenario");
}

TEST_CASE("sizes have upper bounds so that a typo cannot exhaust memory")
{
  const auto errors = errors_of(SEREN + WORKLOAD, {"cluster.gpus_per_node=2000000000", "cluster.fabric.leaf_radix=1e9",
                                                   "workload.synthetic.types.Eval.arrivals_per_hour=900000",
                                                   "workload.synthetic.days=3000"});
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "cluster.gpus_per_node");
  CHECK(errors[1].key == "cluster.fabric.leaf_radix");
  CHECK(errors[2].key == "workload.synthetic");
  CHECK_THAT(errors[2].message, Contains("at most 50,000,000"));
}

TEST_CASE("a recursive YAML alias is an input error, not a crash")
{
  const auto errors = errors_of("a: &x [*x]\n", {});
  REQUIRE_FALSE(errors.empty());
  CHECK_THAT(errors[0].message, Contains("recursive YAML alias"));
}

TEST_CASE("a text of more values than any input needs is refused before yaml-cpp builds it")
{
  // 100,001 values in a flow list: refused at its line, alone (no follow-up errors).
  std::string list = "name: x\nlist: [0";
  for (int i = 0; i < 100'000; ++i)
    list += ",0";
  // A quoted " #" does not hide the rest of the line, as a comment would.
  for (const std::string& text : {list + "]\n", "name: x\nlist: [\"a #\", 'it''s # x'," + list.substr(15) + "]\n"}) {
    const auto errors = errors_of(text, {});
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].where == "test.yaml:2:1");
    CHECK_THAT(errors[0].message, Contains("over 100000 values"));
  }

  // Commas, dashes and colons in comments are not values; 10,000 campaigns (the most allowed)
  // are far below the bound.
  std::string comments;
  for (int i = 0; i < 30'000; ++i)
    comments += "# a, b - c: d, e, f\n";
  std::string campaigns = "evaluation: {campaigns_s: [0";
  for (int i = 1; i < 10'000; ++i)
    campaigns += ", " + std::to_string(i);
  campaigns += "]}\n";
  CHECK_NOTHROW(load(comments + SEREN + WORKLOAD));
  CHECK(load(SEREN + campaigns).evaluation.campaigns_s.size() == 10'000);
}

// --- every section ---------------------------------------------------------------------

TEST_CASE("every section the scenario declares is read: an unknown key under any of them is refused")
{
  // A section declared but never read would drop what a user wrote under it, silently.
  for (const std::string& section : scenario_keys().names()) {
    if (section == "name" || section == "seed")
      continue;
    INFO(section);
    std::string text = "cluster: {preset: seren}\n" + WORKLOAD;
    if (section == "cluster")
      text = "cluster: {preset: seren, no_such_key: 1}\n" + WORKLOAD;
    else if (section == "workload")
      text = "cluster: {preset: seren}\nworkload: {synthetic: {preset: seren, days: 1}, no_such_key: 1}\n";
    else
      text += section + ": {no_such_key: 1}\n";
    CHECK(has_key(errors_of(text), section + ".no_such_key"));
  }
}

TEST_CASE("power: the section's values are read as written")
{
  const Scenario s = load(SEREN + WORKLOAD + "power: {gpu_busy_w: 250, gpu_io_w: 90, pue: 1.3}\n");
  CHECK(s.power.gpu_busy_w == 250);
  CHECK(s.power.gpu_io_w == 90);
  CHECK(s.power.pue == 1.3);
  CHECK(s.power.gpu_idle_w == 60); // the default of a key left out
  CHECK(load(SEREN + WORKLOAD, {"power.node_base_w=1580"}).power.node_base_w == 1580);
}

// --- output section ----------------------------------------------------------------------

TEST_CASE("output: defaults without the section, values as written, and --timeline's override")
{
  const Scenario plain = load(SEREN + WORKLOAD);
  CHECK_FALSE(plain.output.timeline);
  CHECK(plain.output.utilisation_bin_s == 3600);

  const Scenario set = load(SEREN + WORKLOAD + "output:\n  timeline: true\n  utilisation_bin_s: 0.5\n");
  CHECK(set.output.timeline);
  CHECK(set.output.utilisation_bin_s == 0.5);

  // What `acmesim run --timeline` adds, on a scenario without an output section.
  const Scenario overridden = load(SEREN + WORKLOAD, {"output.timeline=true"});
  CHECK(overridden.output.timeline);
  CHECK(overridden.output.utilisation_bin_s == 3600);
}

TEST_CASE("output: unknown keys and bad values are reported with where, key, value and what was expected")
{
  const auto errors = errors_of(SEREN + WORKLOAD +
                                "output:\n"
                                "  timeline: yes\n"
                                "  utilisation_bin_s: 0\n"
                                "  timline: true\n");
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].where == "test.yaml:15:3");
  CHECK(errors[0].key == "output.timline");
  CHECK_THAT(errors[0].message, Contains("unknown key") && Contains("timeline") && Contains("utilisation_bin_s"));
  CHECK(errors[1].where == "test.yaml:13:13");
  CHECK(errors[1].key == "output.timeline");
  CHECK(errors[1].value == "yes");
  CHECK(errors[1].message == "expected one of: true, false");
  CHECK(errors[2].where == "test.yaml:14:22");
  CHECK(errors[2].key == "output.utilisation_bin_s");
  CHECK(errors[2].value == "0");
  CHECK(errors[2].message == "expected a number between 0.001 and 1000000000");

  const Diagnostic negative = single_error(SEREN + WORKLOAD, {"output.utilisation_bin_s=-60"});
  CHECK(negative.where == "--set output.utilisation_bin_s=-60");
  CHECK(negative.key == "output.utilisation_bin_s");
  CHECK(negative.value == "-60");

  const Diagnostic word = single_error(SEREN + WORKLOAD, {"output.utilisation_bin_s=hourly"});
  CHECK(word.value == "hourly");
  CHECK(word.message == "expected a number between 0.001 and 1000000000");

  const Diagnostic not_a_map = single_error(SEREN + WORKLOAD + "output: timeline\n");
  CHECK(not_a_map.key == "output");
  CHECK_THAT(not_a_map.message, StartsWith("expected a map"));
}
