// Checkpoint arithmetic against values worked out by hand (docs/checkpointing.md).
#include "models/checkpoint/CheckpointMath.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace acmesim;

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double MINUTE = 60;
constexpr double HOUR = 3600;

} // namespace

TEST_CASE("checkpoint math: the model size comes from the first rule covering the job, else the last")
{
  CheckpointSpec spec;
  spec.model_sizes = {{8, 1}, {64, 7}, {512, 70}};
  CHECK(model_params(spec, 1) == 1e9);
  CHECK(model_params(spec, 8) == 1e9);
  CHECK(model_params(spec, 9) == 7e9);
  CHECK(model_params(spec, 64) == 7e9);
  CHECK(model_params(spec, 65) == 70e9);
  CHECK(model_params(spec, 4096) == 70e9); // larger than every rule: the last one
}

TEST_CASE("checkpoint math: the default model table spans Acme's 7B to 123B models")
{
  const CheckpointSpec spec;
  CHECK(model_params(spec, 8) == 7e9);
  CHECK(model_params(spec, 64) == 7e9);
  CHECK(model_params(spec, 128) == 20e9);
  CHECK(model_params(spec, 1024) == 123e9);
  CHECK(model_params(spec, 2048) == 123e9);

  // A spec built in code with an empty table falls back to the same defaults.
  CheckpointSpec empty;
  empty.model_sizes.clear();
  CHECK(model_params(empty, 64) == 7e9);
  CHECK(model_params(empty, 1024) == 123e9);
}

TEST_CASE("checkpoint math: a 7B checkpoint at 14 bytes per parameter is 98 GB")
{
  CheckpointSpec spec;
  spec.model_sizes = {{64, 7}};
  CHECK(checkpoint_bytes(spec, 64) == Approx(98e9));
  spec.bytes_per_param = 2; // bf16 weights only
  CHECK(checkpoint_bytes(spec, 64) == Approx(14e9));
}

TEST_CASE("checkpoint math: step time is 6 N tokens over the job's delivered FLOP rate")
{
  CheckpointSpec spec;
  spec.model_sizes = {{64, 7}, {1024, 123}};
  spec.peak_tflops_per_gpu = 312;
  spec.mfu = 0.4;
  spec.tokens_per_step = 4e6;
  // 6 * 7e9 * 4e6 = 1.68e17 FLOPs; 64 * 312e12 * 0.4 = 7.9872e15 FLOP/s -> 21.0337 s.
  CHECK(step_time_s(spec, 64) == Approx(21.033653846).epsilon(1e-9));
  CHECK(tokens_per_second(spec, 64) == Approx(4e6 / 21.033653846).epsilon(1e-9));
  // 6 * 123e9 * 4e6 = 2.952e18; 1024 * 312e12 * 0.4 = 1.277952e17 -> 23.0995 s.
  CHECK(step_time_s(spec, 1024) == Approx(23.099459135).epsilon(1e-9));
  // Twice the GPUs for the same model: half the step time.
  CHECK(step_time_s(spec, 32) == Approx(2 * step_time_s(spec, 64)));

  spec.step_time_s = 7.5; // given: overrides the throughput model
  CHECK(step_time_s(spec, 64) == 7.5);
  CHECK(tokens_per_second(spec, 64) == Approx(4e6 / 7.5));
}

TEST_CASE("checkpoint math: Young's interval is sqrt(2 delta M)")
{
  // delta = 60 s, M = 14.4 h = 51,840 s: sqrt(6,220,800) = 2,494.15 s, about 41.6 min.
  CHECK(young_interval(60, 14.4 * HOUR) == Approx(2494.1531629).epsilon(1e-9));
  CHECK(young_interval(60, 14.4 * HOUR) / MINUTE == Approx(41.569).epsilon(1e-4));
  CHECK(young_interval(60, INF) == INF);
}

TEST_CASE("checkpoint math: Daly's interval reproduces Daly's own examples")
{
  // Daly (2006): delta = 5 min. Published: 117, 57 and 9.1 min; recomputed in models.md §2.1.
  CHECK(daly_interval(5 * MINUTE, 24 * HOUR) / MINUTE == Approx(116.7).margin(0.1));
  CHECK(daly_interval(5 * MINUTE, 6 * HOUR) / MINUTE == Approx(56.7).margin(0.1));
  CHECK(daly_interval(5 * MINUTE, 15 * MINUTE) / MINUTE == Approx(9.14).margin(0.1));
  // The worked examples of models.md §2.1 for a 2,048-GPU job (M = 14.4 h).
  CHECK(daly_interval(10, 14.4 * HOUR) / MINUTE == Approx(17).margin(0.5));
  CHECK(daly_interval(60, 14.4 * HOUR) / MINUTE == Approx(41).margin(0.5));
  CHECK(daly_interval(300, 14.4 * HOUR) / MINUTE == Approx(90).margin(0.5));
  // Daly's correction shortens Young's interval slightly for small delta / M.
  CHECK(daly_interval(60, 14.4 * HOUR) < young_interval(60, 14.4 * HOUR));
}

TEST_CASE("checkpoint math: Daly gives M once delta reaches 2M, and infinity for a job that never fails")
{
  CHECK(daly_interval(100, 50) == 50);  // delta == 2M
  CHECK(daly_interval(1000, 50) == 50); // delta > 2M
  CHECK(daly_interval(99.9, 50) > 0);   // just below: the expansion still applies
  CHECK(daly_interval(60, INF) == INF);
}

TEST_CASE("checkpoint math: a fixed interval counts seconds, or steps when interval_steps is set")
{
  CheckpointSpec spec;
  spec.model_sizes = {{64, 7}};
  spec.step_time_s = 20;
  spec.interval_policy = IntervalPolicy::Fixed;
  spec.interval_s = 1800;
  CHECK(checkpoint_interval(spec, 64, 60, 14.4 * HOUR) == 1800);
  spec.interval_steps = 50; // InternEvo's default: every 50 steps
  CHECK(checkpoint_interval(spec, 64, 60, 14.4 * HOUR) == 1000);
  // A fixed interval does not depend on the failure rate.
  CHECK(checkpoint_interval(spec, 64, 60, INF) == 1000);
}

TEST_CASE("checkpoint math: the policy picks Young or Daly, and never less than one step")
{
  CheckpointSpec spec;
  spec.model_sizes = {{64, 7}};
  spec.step_time_s = 20;
  spec.interval_policy = IntervalPolicy::Young;
  CHECK(checkpoint_interval(spec, 64, 60, 14.4 * HOUR) == Approx(young_interval(60, 14.4 * HOUR)));
  CHECK(checkpoint_interval(spec, 64, 60, INF) == INF);
  spec.interval_policy = IntervalPolicy::Daly;
  CHECK(checkpoint_interval(spec, 64, 60, 14.4 * HOUR) == Approx(daly_interval(60, 14.4 * HOUR)));

  // A near-free snapshot on a failure-prone job: sqrt(2 * 0.01 * 100) = 1.4 s, below one 20 s step.
  spec.interval_policy = IntervalPolicy::Young;
  CHECK(checkpoint_interval(spec, 64, 0.01, 100) == 20);
  spec.interval_policy = IntervalPolicy::Daly;
  CHECK(checkpoint_interval(spec, 64, 0.01, 100) == 20);
  spec.interval_policy = IntervalPolicy::Fixed;
  spec.interval_s = 5;
  CHECK(checkpoint_interval(spec, 64, 60, HOUR) == 20);
}
