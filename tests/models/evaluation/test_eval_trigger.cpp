// The campaign that evaluates a pretraining job's checkpoint, and a model copy over PCIe.
#include "models/evaluation/EvalCampaign.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;

TEST_CASE("a triggered campaign evaluates the job's model on as many GPUs per trial as it needs, within a node")
{
  EvalSpec base;
  base.model_params_b = 7;
  base.gpus_per_trial = 1;
  CheckpointSpec checkpoint;
  checkpoint.model_sizes = {{64, 7}, {256, 20}, {1024, 123}};

  const EvalSpec small = triggered_campaign_spec(base, checkpoint, 64, 8);
  CHECK(small.model_params_b == 7);
  CHECK(small.gpus_per_trial == 1);
  const EvalSpec mid = triggered_campaign_spec(base, checkpoint, 128, 8);
  CHECK(mid.model_params_b == 20);
  CHECK(mid.gpus_per_trial == 2);
  const EvalSpec large = triggered_campaign_spec(base, checkpoint, 1024, 8);
  CHECK(large.model_params_b == 123);
  CHECK(large.gpus_per_trial == 8);
  CHECK(triggered_campaign_spec(base, checkpoint, 1024, 4).gpus_per_trial == 4); // capped by the node
}

TEST_CASE("a model copy from host memory takes its bytes over the PCIe bandwidth")
{
  EvalSpec spec;
  spec.pcie_GBps = 25;
  CHECK(host_model_load_s(spec, 14e9) == Approx(0.56));
}
