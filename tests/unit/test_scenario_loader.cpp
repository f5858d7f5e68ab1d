// Scenario loading: presets, overrides, and one diagnostic per problem with the right place.
#include "models/common/InputError.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace acmesim;
using Catch::Contains;
using Catch::StartsWith;

namespace {

const std::string DATA_DIR = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/scenarios";

// A valid workload section; tests about other sections append it. It starts at a line of its own.
const std::string WORKLOAD = "workload:\n"
                             "  synthetic:\n"
                             "    days: 1\n"
                             "    users: 10\n"
                             "    types:\n"
                             "      Eval:\n"
                             "        arrivals_per_hour: 60\n"
                             "        gpus: {values: [1, 2, 4, 8], cdf: [0.85, 0.9, 0.95, 1.0]}\n"
                             "        duration_s: {values: [8, 64, 256], cdf: [0.3, 0.7, 1.0]}\n";

const std::string SEREN = "cluster:\n  preset: seren\n";

Scenario load(const std::string& text, const std::vector<std::string>& overrides = {})
{
  return load_scenario_text(text, "test.yaml", DATA_DIR, overrides);
}

// The diagnostics of a scenario that must not load.
std::vector<Diagnostic> errors_of(const std::string& text, const std::vector<std::string>& overrides = {})
{
  return testing::input_errors([&] { load(text, overrides); });
}

Diagnostic single_error(const std::string& text, const std::vector<std::string>& overrides = {})
{
  const auto errors = errors_of(text, overrides);
  INFO((errors.empty() ? std::string("no error") : InputError(errors).what()));
  REQUIRE(errors.size() == 1);
  return errors.front();
}

bool has_key(const std::vector<Diagnostic>& errors, const std::string& key)
{
  return std::any_of(errors.begin(), errors.end(), [&](const Diagnostic& d) { return d.key == key; });
}

} // namespace

// --- valid scenarios -------------------------------------------------------------------------

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
  const std::map<std::string, double> params{{"backfill_depth", 1000}, {"runtime_estimate_factor", 1.0}};
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

TEST_CASE("embedded configs list the cluster presets with their summaries")
{
  CHECK(cluster_preset_names() == std::vector<std::string>{"acme", "kalos", "seren"});
  CHECK_THAT(cluster_preset_summary("seren"), StartsWith("Seren: 286 nodes"));
  CHECK_THAT(cluster_preset_summary("acme"), StartsWith("Acme: both clusters"));
  CHECK(cluster_preset_summary("nope").empty());
  CHECK(embedded_cluster_preset("kalos"));
  CHECK_FALSE(embedded_cluster_preset("nope"));
  CHECK_FALSE(embedded_cluster_preset("../default-scenario"));
  CHECK_THAT(std::string(embedded_default_scenario()), Contains("preset: kalos"));
}

TEST_CASE("each cluster preset loads")
{
  SECTION("seren")
  {
    const Scenario s = load(SEREN + WORKLOAD);
    CHECK(s.cluster.name == "seren");
    REQUIRE(s.cluster.pods.size() == 1);
    CHECK(s.cluster.pods[0].nodes == 286);
    CHECK(s.cluster.pods[0].compute_nics == 1);
    CHECK(s.cluster.storage.bandwidth_GBps == 286);
  }
  SECTION("kalos")
  {
    const Scenario s = load("cluster: {preset: kalos}\n" + WORKLOAD);
    REQUIRE(s.cluster.pods.size() == 1);
    CHECK(s.cluster.pods[0].nodes == 302);
    CHECK(s.cluster.pods[0].compute_nics == 4);
  }
  SECTION("acme: two pods that take their fields from seren and kalos, and acme's own storage")
  {
    const Scenario s = load("cluster: {preset: acme}\n" + WORKLOAD);
    CHECK(s.cluster.name == "acme");
    REQUIRE(s.cluster.pods.size() == 2);
    CHECK(s.cluster.pods[0].name == "seren");
    CHECK(s.cluster.pods[0].nodes == 286);
    CHECK(s.cluster.pods[0].compute_nics == 1);
    CHECK(s.cluster.pods[1].name == "kalos");
    CHECK(s.cluster.pods[1].nodes == 302);
    CHECK(s.cluster.pods[1].compute_nics == 4);
    CHECK(s.cluster.pods[1].fabric.spine_radix == 800);
    CHECK(s.cluster.storage.bandwidth_GBps == 588);
  }
}

TEST_CASE("user keys override a preset, and fabric and storage merge key by key")
{
  const Scenario s = load("cluster:\n"
                          "  preset: kalos\n"
                          "  nodes: 4\n"
                          "  fabric: {spine_radix: 80}\n"
                          "  storage: {latency_us: 5}\n" +
                          WORKLOAD);
  CHECK(s.cluster.name == "kalos");
  REQUIRE(s.cluster.pods.size() == 1);
  const PodSpec& pod = s.cluster.pods[0];
  CHECK(pod.nodes == 4);
  CHECK(pod.compute_nics == 4);      // from the preset
  CHECK(pod.fabric.spine_radix == 80);
  CHECK(pod.fabric.leaf_radix == 40); // from the preset's fabric
  CHECK(s.cluster.storage.latency_us == 5);
  CHECK(s.cluster.storage.bandwidth_GBps == 302);
}

TEST_CASE("an inline cluster is one pod named after the cluster, with defaults for what it leaves out")
{
  const Scenario s = load("cluster:\n"
                          "  name: mini\n"
                          "  nodes: 2\n"
                          "  gpus_per_node: 4\n"
                          "  nic_bandwidth_Gbps: 100\n"
                          "  fabric: {leaf_radix: 8, oversubscription: 2}\n"
                          "seed: 7\n" +
                          WORKLOAD);
  CHECK(s.name == "test");
  CHECK(s.seed == 7);
  CHECK(s.cluster.name == "mini");
  REQUIRE(s.cluster.pods.size() == 1);
  const PodSpec& pod = s.cluster.pods[0];
  CHECK(pod.name == "mini");
  CHECK(pod.nodes == 2);
  CHECK(pod.gpus_per_node == 4);
  CHECK(pod.cpus_per_node == 128);
  CHECK(pod.nic_bandwidth_Gbps == 100);
  CHECK(pod.fabric.leaf_radix == 8);
  CHECK(pod.fabric.oversubscription == 2);
  CHECK(pod.fabric.spine_radix == 40);
  CHECK(s.scheduler.name == "fifo");
  CHECK(s.scheduler.placement == "pack");
  CHECK(s.scheduler.params.empty());

  CHECK(load("cluster: {nodes: 1}\n" + WORKLOAD).cluster.name == "custom");
}

TEST_CASE("an inline multi-pod cluster mixes pod presets and inline pods")
{
  const Scenario s = load("cluster:\n"
                          "  pods:\n"
                          "    - preset: seren\n"
                          "    - {preset: kalos, nodes: 10, fabric: {leaf_radix: 20}}\n"
                          "    - {nodes: 2, gpus_per_node: 4}\n" +
                          WORKLOAD);
  CHECK(s.cluster.name == "custom");
  REQUIRE(s.cluster.pods.size() == 3);
  CHECK(s.cluster.pods[0].name == "seren");
  CHECK(s.cluster.pods[0].nodes == 286);
  CHECK(s.cluster.pods[1].name == "kalos");
  CHECK(s.cluster.pods[1].nodes == 10);
  CHECK(s.cluster.pods[1].compute_nics == 4);
  CHECK(s.cluster.pods[1].fabric.leaf_radix == 20);
  CHECK(s.cluster.pods[1].fabric.spine_radix == 800);
  CHECK(s.cluster.pods[2].name == "pod2");
  CHECK(s.cluster.pods[2].gpus_per_node == 4);
  CHECK(s.cluster.storage.bandwidth_GBps == 588); // StorageSpec default: a pod preset brings no storage
}

TEST_CASE("a pod list of the user's own replaces a single-pod preset's pod fields")
{
  const Scenario s = load("cluster:\n  preset: kalos\n  pods: [{name: a, nodes: 2}]\n" + WORKLOAD);
  CHECK(s.cluster.name == "kalos");
  REQUIRE(s.cluster.pods.size() == 1);
  CHECK(s.cluster.pods[0].name == "a");
  CHECK(s.cluster.pods[0].compute_nics == 1);
  CHECK(s.cluster.storage.bandwidth_GBps == 302);
}

TEST_CASE("scheduler parameters: given values kept, the others defaulted")
{
  const Scenario s =
      load(SEREN + WORKLOAD + "scheduler: {name: easy-backfill, placement: spread, backfill_depth: 50}\n");
  CHECK(s.scheduler.name == "easy-backfill");
  CHECK(s.scheduler.placement == "spread");
  CHECK(s.scheduler.params.at("backfill_depth") == 50);
  CHECK(s.scheduler.params.at("runtime_estimate_factor") == 1.0);
}

TEST_CASE("job states: missing ones count as 0")
{
  const Scenario s = load(SEREN + WORKLOAD + "        states: {COMPLETED: 0.75, NODE_FAIL: 0.25}\n");
  CHECK(s.workload.synthetic->types[0].state_shares == std::array<double, 5>{0.75, 0, 0, 0, 0.25});
}

// --- one test per kind of error ---------------------------------------------------------------

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
  CHECK(d.message == "expected an integer between 1 and 100000");

  const Diagnostic days = single_error(SEREN + WORKLOAD, {"workload.synthetic.days=three"});
  CHECK(days.key == "workload.synthetic.days");
  CHECK(days.message == "expected a number > 0 and <= 3650");

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
                                WORKLOAD + "scheduler: {name: easy-backfill, runtime_estimate_factor: 0.5}\n");
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "cluster.storage_nics");
  CHECK(errors[0].value == "-1");
  CHECK(errors[0].message == "expected an integer between 0 and 64");
  CHECK(errors[1].key == "cluster.fabric.oversubscription");
  CHECK(errors[1].where == "test.yaml:4:30");
  CHECK(errors[1].message == "expected a number > 0");
  CHECK(errors[2].key == "scheduler.runtime_estimate_factor");
  CHECK(errors[2].value == "0.5");
  CHECK(errors[2].message == "expected a number between 1 and 1000000");
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
    CHECK(errors[2].message == "expected a number > 0");
  }
}

TEST_CASE("an unknown scheduler lists the valid ones")
{
  const Diagnostic d = single_error(SEREN + WORKLOAD + "scheduler:\n  name: sjf\n");
  CHECK(d.where == "test.yaml:13:9");
  CHECK(d.key == "scheduler.name");
  CHECK(d.value == "sjf");
  CHECK_THAT(d.message, Contains("fifo") && Contains("easy-backfill"));
}

TEST_CASE("an unknown placement policy lists the valid ones")
{
  const Diagnostic d = single_error(SEREN + WORKLOAD + "scheduler: {placement: best}\n");
  CHECK(d.key == "scheduler.placement");
  CHECK(d.value == "best");
  CHECK_THAT(d.message, Contains("pack") && Contains("spread") && Contains("random"));
}

TEST_CASE("a parameter the chosen scheduler does not declare is rejected")
{
  const Diagnostic fifo = single_error(SEREN + WORKLOAD + "scheduler: {name: fifo, backfill_depth: 10}\n");
  CHECK(fifo.key == "scheduler.backfill_depth");
  CHECK(fifo.where == "test.yaml:12:25");
  CHECK_THAT(fifo.message, Contains("'fifo' takes no parameters"));

  const Diagnostic easy = single_error(SEREN + WORKLOAD + "scheduler: {name: easy-backfill, depth: 10}\n");
  CHECK(easy.key == "scheduler.depth");
  CHECK_THAT(easy.message, Contains("runtime_estimate_factor") && Contains("backfill_depth"));
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

TEST_CASE("flat pod fields on a multi-pod cluster are an error")
{
  const Diagnostic d = single_error("cluster:\n  preset: acme\n  nodes: 4\n" + WORKLOAD);
  CHECK(d.where == "test.yaml:3:3");
  CHECK(d.key == "cluster.nodes");
  CHECK(d.message == "cannot set pod field 'nodes' on a multi-pod cluster; set cluster.pods.<i>.nodes");
}

TEST_CASE("unknown presets and job types list the valid names")
{
  const auto errors =
      errors_of("cluster:\n  pods: [{preset: seren}, {preset: kalso}]\n" + WORKLOAD + "      Training: {}\n");
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].key == "cluster.pods.1.preset");
  CHECK(errors[0].value == "kalso");
  CHECK_THAT(errors[0].message, Contains("acme, kalos, seren"));
  CHECK(errors[1].key == "workload.synthetic.types.Training");
  CHECK_THAT(errors[1].message, Contains("Pretrain") && Contains("MLLM"));

  const Diagnostic multi = single_error("cluster:\n  pods: [{preset: acme}]\n" + WORKLOAD);
  CHECK(multi.key == "cluster.pods.0.preset");
  CHECK_THAT(multi.message, Contains("single-pod"));

  const Diagnostic twice = single_error("cluster:\n  pods: [{preset: seren}, {preset: seren, nodes: 2}]\n" + WORKLOAD);
  CHECK(twice.key == "cluster.pods.1.name");
  CHECK(twice.where == "test.yaml:2:36"); // the name comes from the second `preset: seren`
  CHECK_THAT(twice.message, Contains("'seren'"));
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
    CHECK(std::string(e.what()) == "test.yaml:1:18: key 'cluster.nodes', value '0': expected an integer between 1 and 100000\n"
                                   "test.yaml:2:11: key 'workload': expected workload.trace (a job trace file) or "
                                   "workload.synthetic (generator settings)");
  }
}

// --- overrides -------------------------------------------------------------------------------

TEST_CASE("overrides set scalars, lists and plain words")
{
  const std::string text = "cluster: {preset: kalos}\n" + WORKLOAD + "scheduler: {name: easy-backfill}\n";
  const Scenario s = load(text, {"seed=7", "name=my-run", "cluster.nodes=4", "cluster.fabric.spine_radix=100",
                                 "workload.synthetic.types.Eval.gpus.values=[1, 2]",
                                 "workload.synthetic.types.Eval.gpus.cdf=[0.5, 1]", "scheduler.backfill_depth=5"});
  CHECK(s.seed == 7);
  CHECK(s.name == "my-run");
  CHECK(s.cluster.pods[0].nodes == 4);
  CHECK(s.cluster.pods[0].fabric.spine_radix == 100);
  CHECK(s.cluster.pods[0].fabric.leaf_radix == 40);
  CHECK(s.workload.synthetic->types[0].gpus.values == std::vector<double>{1, 2});
  CHECK(s.scheduler.params.at("backfill_depth") == 5);

  // Overrides apply before presets are merged, so they can change the preset itself.
  const Scenario seren = load(text, {"cluster.preset=seren", "scheduler={name: fifo}"});
  CHECK(seren.cluster.pods[0].nodes == 286);
  CHECK(seren.scheduler.params.empty());
}

TEST_CASE("overrides index into pod lists, including a preset's")
{
  const Scenario acme = load("cluster: {preset: acme}\n" + WORKLOAD, {"cluster.pods.1.nodes=10"});
  REQUIRE(acme.cluster.pods.size() == 2);
  CHECK(acme.cluster.pods[0].nodes == 286);
  CHECK(acme.cluster.pods[1].name == "kalos");
  CHECK(acme.cluster.pods[1].nodes == 10);
  CHECK(acme.cluster.pods[1].compute_nics == 4);
  CHECK(acme.cluster.storage.bandwidth_GBps == 588);

  const Scenario inline_pods =
      load("cluster:\n  pods: [{nodes: 1}, {nodes: 2}]\n" + WORKLOAD, {"cluster.pods.0.nodes=3"});
  CHECK(inline_pods.cluster.pods[0].nodes == 3);
  CHECK(inline_pods.cluster.pods[1].nodes == 2);
}

TEST_CASE("malformed overrides are each reported at their --set")
{
  const auto errors = errors_of("cluster: {preset: acme}\n" + WORKLOAD,
                                {"seed", "=4", "cluster.pods.5.nodes=1", "cluster.preset.x=1", "cluster..nodes=1",
                                 "scheduler.name=[fifo", "workload.synthetic.days.0=1"});
  REQUIRE(errors.size() == 7);
  CHECK(errors[0].where == "--set seed");
  CHECK_THAT(errors[0].message, Contains("key.path=value"));
  CHECK(errors[1].where == "--set =4");
  CHECK(errors[2].where == "--set cluster.pods.5.nodes=1");
  CHECK(errors[2].key == "cluster.pods.5.nodes");
  CHECK_THAT(errors[2].message, Contains("0 to 1"));
  CHECK(errors[3].where == "--set cluster.preset.x=1");
  CHECK_THAT(errors[3].message, Contains("'cluster.preset'"));
  CHECK(errors[4].where == "--set cluster..nodes=1");
  CHECK(errors[5].where == "--set scheduler.name=[fifo");
  CHECK_THAT(errors[5].message, Contains("not valid YAML"));
  CHECK(errors[6].where == "--set workload.synthetic.days.0=1");
}

TEST_CASE("an error in an overridden value names the --set instead of a line")
{
  const auto errors =
      errors_of("cluster: {preset: acme}\n" + WORKLOAD,
                {"cluster.pods.1.nodes=-3", "scheduler.name=sjf", "cluster.pods.0.fabric={leaf_radx: 4}"});
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].where == "--set cluster.pods.0.fabric={leaf_radx: 4}");
  CHECK(errors[0].key == "cluster.pods.0.fabric.leaf_radx");
  CHECK(errors[1].where == "--set cluster.pods.1.nodes=-3");
  CHECK(errors[1].key == "cluster.pods.1.nodes");
  CHECK(errors[1].value == "-3");
  CHECK(errors[2].where == "--set scheduler.name=sjf");
  CHECK(errors[2].value == "sjf");
}

// --- files -----------------------------------------------------------------------------------

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

TEST_CASE("a fabric that cannot be built is reported at load time")
{
  // Five nodes per leaf with four NICs each fill 20 ports of a 40-port leaf; Kalos' 61 leaves
  // then need spines of at least 61 ports.
  try {
    load_scenario_text("cluster: {preset: kalos, fabric: {spine_radix: 40}}\nworkload: {synthetic: {types: "
                       "{Eval: {arrivals_per_hour: 1, gpus: {values: [1], cdf: [1]}, duration_s: {values: [60], "
                       "cdf: [1]}}}}}\n",
                       "fabric.yaml", ACMESIM_SOURCE_DIR);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].key == "cluster.pods.0.fabric.spine_radix");
    CHECK(e.diagnostics()[0].message.find("61") != std::string::npos);
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
      errors_of(SEREN + "workload:\n  synthetic: {preset: frontier, types: {}, retry_probability: 2}\n", {});
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "workload.synthetic.types"); // unknown key next to a preset
  CHECK(errors[1].key == "workload.synthetic.preset");
  CHECK(errors[2].key == "workload.synthetic.retry_probability");
}

// --- output section --------------------------------------------------------------------------

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
  CHECK(errors[2].message == "expected a number > 0 and <= 1000000000");

  const Diagnostic negative = single_error(SEREN + WORKLOAD, {"output.utilisation_bin_s=-60"});
  CHECK(negative.where == "--set output.utilisation_bin_s=-60");
  CHECK(negative.key == "output.utilisation_bin_s");
  CHECK(negative.value == "-60");

  const Diagnostic word = single_error(SEREN + WORKLOAD, {"output.utilisation_bin_s=hourly"});
  CHECK(word.value == "hourly");
  CHECK(word.message == "expected a number > 0 and <= 1000000000");

  const Diagnostic not_a_map = single_error(SEREN + WORKLOAD + "output: timeline\n");
  CHECK(not_a_map.key == "output");
  CHECK_THAT(not_a_map.message, StartsWith("expected a map"));
}
