// Overrides (--set): values, lists, pod lists of presets, and errors that name the --set.
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;
using Catch::Contains;
using Catch::StartsWith;

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
