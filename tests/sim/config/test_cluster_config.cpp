// The `cluster:` section: presets, inline clusters and pods, and their diagnostics.
#include "sim/config/EmbeddedConfigs.hpp"
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;
using Catch::Contains;
using Catch::StartsWith;

TEST_CASE("embedded configs list the cluster presets with their summaries")
{
  CHECK(cluster_preset_names() == std::vector<std::string>{"acme", "dgx-b200", "dgx-h100", "dgx-h200", "gb200-nvl72", "kalos", "seren"});
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
  CHECK(pod.fabric.spine_radix == 0); // derived: 40 ports are enough for its one leaf
  CHECK(derived_spine_radix(pod) == 40);
  CHECK(s.scheduler.name == "fifo");
  CHECK(s.scheduler.placement == "pack");
  CHECK(s.scheduler.params.empty());

  CHECK(load("cluster: {nodes: 1}\n" + WORKLOAD).cluster.name == "custom");
  // A cluster given by its nodes alone builds: the spines get a port per leaf (a Parallel
  // Workloads Archive machine of 1,002 nodes of 4 GPUs: 51 leaves of 20, and one for storage).
  const Scenario pwa = load("cluster: {nodes: 1002, gpus_per_node: 4}\n" + WORKLOAD);
  CHECK(derived_spine_radix(pwa.cluster.pods[0]) == 52);
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
  CHECK_THAT(errors[0].message, Contains("acme, dgx-b200, dgx-h100, dgx-h200, gb200-nvl72, kalos, seren"));
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
