// The `checkpoint:` section of a scenario: values, defaults, and one clear diagnostic per problem.
#include "models/common/InputError.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace acmesim;
using Catch::Contains;

namespace {

const std::string DATA_DIR = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/scenarios";

// A valid cluster and workload; the checkpoint section is appended at line 12.
const std::string BASE = "cluster:\n"
                         "  preset: seren\n"
                         "workload:\n"
                         "  synthetic:\n"
                         "    days: 1\n"
                         "    users: 10\n"
                         "    types:\n"
                         "      Pretrain:\n"
                         "        arrivals_per_hour: 1\n"
                         "        gpus: {values: [64, 256], cdf: [0.5, 1.0]}\n"
                         "        duration_s: {values: [600, 3600], cdf: [0.5, 1.0]}\n";

Scenario load(const std::string& text) { return load_scenario_text(text, "test.yaml", DATA_DIR); }

// `lines` are the section's entries, each indented under `checkpoint:`.
std::string with_checkpoint(const std::vector<std::string>& lines)
{
  std::string text = BASE + "checkpoint:\n";
  for (const auto& l : lines)
    text += "  " + l + "\n";
  return text;
}

std::vector<Diagnostic> errors_of(const std::string& text)
{
  return testing::input_errors([&] { load(text); });
}

// The only diagnostic of a section holding one bad entry.
Diagnostic single_error(const std::vector<std::string>& lines)
{
  const auto errors = errors_of(with_checkpoint(lines));
  INFO((errors.empty() ? std::string("no error") : InputError(errors).what()));
  REQUIRE(errors.size() == 1);
  return errors.front();
}

void check_rejected(const std::string& line, const std::string& key, const std::string& value,
                    const std::string& expected)
{
  INFO(line);
  const Diagnostic d = single_error({line});
  CHECK(d.key == key);
  CHECK(d.value == value);
  CHECK_THAT(d.message, Contains(expected));
  CHECK_THAT(d.where, Contains("test.yaml:13:")); // the line of the entry
}

} // namespace

// --- valid sections --------------------------------------------------------------------------

TEST_CASE("checkpoint config: a full section parses into the spec")
{
  const Scenario s = load(with_checkpoint({
      "enabled: true",
      "job_types: [Pretrain, SFT]",
      "model_sizes: [{max_gpus: 64, params_b: 7}, {max_gpus: 256, params_b: 20}, {max_gpus: 1024, params_b: 123}]",
      "bytes_per_param: 16",
      "peak_tflops_per_gpu: 989",
      "mfu: 0.45",
      "tokens_per_step: 2000000",
      "step_time_s: 12.5",
      "mode: async",
      "interval: daly",
      "interval_s: 1800",
      "interval_steps: 50",
      "snapshot_GBps: 32",
      "init_s: 120",
  }));
  const CheckpointSpec& c = s.checkpoint;
  CHECK(c.enabled);
  CHECK(c.job_types == std::vector<JobType>{JobType::Pretrain, JobType::SFT});
  REQUIRE(c.model_sizes.size() == 3);
  CHECK(c.model_sizes[0].max_gpus == 64);
  CHECK(c.model_sizes[0].params_billion == 7);
  CHECK(c.model_sizes[1].max_gpus == 256);
  CHECK(c.model_sizes[1].params_billion == 20);
  CHECK(c.model_sizes[2].max_gpus == 1024);
  CHECK(c.model_sizes[2].params_billion == 123);
  CHECK(c.bytes_per_param == 16);
  CHECK(c.peak_tflops_per_gpu == 989);
  CHECK(c.mfu == 0.45);
  CHECK(c.tokens_per_step == 2e6);
  CHECK(c.step_time_s == 12.5);
  CHECK(c.mode == CheckpointMode::Async);
  CHECK(c.interval_policy == IntervalPolicy::Daly);
  CHECK(c.interval_s == 1800);
  CHECK(c.interval_steps == 50);
  CHECK(c.snapshot_GBps == 32);
  CHECK(c.init_s == 120);
}

TEST_CASE("checkpoint config: block-style lists and the other mode and interval names")
{
  const Scenario s = load(with_checkpoint({
      "job_types:",
      "  - Pretrain",
      "  - MLLM",
      "model_sizes:",
      "  - max_gpus: 8",
      "    params_b: 1.8",
      "  - {max_gpus: 4096, params_b: 70}",
      "mode: sync",
      "interval: young",
  }));
  CHECK(s.checkpoint.job_types == std::vector<JobType>{JobType::Pretrain, JobType::MLLM});
  REQUIRE(s.checkpoint.model_sizes.size() == 2);
  CHECK(s.checkpoint.model_sizes[0].params_billion == 1.8);
  CHECK(s.checkpoint.model_sizes[1].max_gpus == 4096);
  CHECK(s.checkpoint.mode == CheckpointMode::Sync);
  CHECK(s.checkpoint.interval_policy == IntervalPolicy::Young);
  CHECK(load(with_checkpoint({"interval: fixed"})).checkpoint.interval_policy == IntervalPolicy::Fixed);
}

TEST_CASE("checkpoint config: without the section checkpointing is off")
{
  const Scenario s = load(BASE);
  CHECK_FALSE(s.checkpoint.enabled);
}

TEST_CASE("checkpoint config: an empty section turns checkpointing on with every default")
{
  const CheckpointSpec defaults;
  const Scenario s = load(BASE + "checkpoint:\n");
  const CheckpointSpec& c = s.checkpoint;
  CHECK(c.enabled);
  CHECK(c.job_types == std::vector<JobType>{JobType::Pretrain});
  REQUIRE(c.model_sizes.size() == 3);
  CHECK(c.model_sizes[0].max_gpus == 64);
  CHECK(c.model_sizes[0].params_billion == 7);
  CHECK(c.model_sizes[2].max_gpus == 1024);
  CHECK(c.model_sizes[2].params_billion == 123);
  CHECK(c.bytes_per_param == 14);
  CHECK(c.peak_tflops_per_gpu == 312);
  CHECK(c.mfu == 0.4);
  CHECK(c.tokens_per_step == 4e6);
  CHECK(c.step_time_s == 0);
  CHECK(c.mode == CheckpointMode::Sync);
  CHECK(c.interval_policy == IntervalPolicy::Fixed);
  CHECK(c.interval_s == defaults.interval_s);
  CHECK(c.interval_steps == 0);
  CHECK(c.snapshot_GBps == 25);
  CHECK(c.init_s == defaults.init_s);

  CHECK_FALSE(load(with_checkpoint({"enabled: false"})).checkpoint.enabled);
  CHECK(load(with_checkpoint({"mode: async"})).checkpoint.enabled);
}

// --- rejections ------------------------------------------------------------------------------

TEST_CASE("checkpoint config: a zero or negative interval is a clear error")
{
  check_rejected("interval_s: 0", "checkpoint.interval_s", "0", "seconds > 0");
  check_rejected("interval_s: 0", "checkpoint.interval_s", "0", "checkpoint.enabled: false");
  check_rejected("interval_s: -60", "checkpoint.interval_s", "-60", "seconds > 0");
  check_rejected("interval_s: 1e12", "checkpoint.interval_s", "1e12", "between 0.001 and 1000000000");
  check_rejected("interval_s: 4.9e-324", "checkpoint.interval_s", "4.9e-324", "between 0.001 and 1000000000");
  check_rejected("interval_s: soon", "checkpoint.interval_s", "soon", "expected a number");
  check_rejected("interval_steps: -1", "checkpoint.interval_steps", "-1", "an integer between 0 and");
  check_rejected("interval_steps: 2.5", "checkpoint.interval_steps", "2.5", "an integer");
}

TEST_CASE("checkpoint config: sizes and throughput out of range name the key and value")
{
  check_rejected("bytes_per_param: 0", "checkpoint.bytes_per_param", "0", "a number between 0.125 and 1000");
  check_rejected("bytes_per_param: -14", "checkpoint.bytes_per_param", "-14", "a number between 0.125 and 1000");
  check_rejected("mfu: 0", "checkpoint.mfu", "0", "a number between 0.0001 and 1");
  check_rejected("mfu: 1.5", "checkpoint.mfu", "1.5", "a number between 0.0001 and 1");
  check_rejected("mfu: 40%", "checkpoint.mfu", "40%", "a number between 0.0001 and 1");
  check_rejected("peak_tflops_per_gpu: 0", "checkpoint.peak_tflops_per_gpu", "0", "a number between 0.001 and");
  check_rejected("peak_tflops_per_gpu: -312", "checkpoint.peak_tflops_per_gpu", "-312", "a number between 0.001 and");
  check_rejected("tokens_per_step: 0", "checkpoint.tokens_per_step", "0", "a number between 1 and");
  check_rejected("step_time_s: -1", "checkpoint.step_time_s", "-1", "0, or a number between 0.001 and");
  check_rejected("snapshot_GBps: 0", "checkpoint.snapshot_GBps", "0", "a number between 0.001 and");
  check_rejected("init_s: -5", "checkpoint.init_s", "-5", "0, or a number between 0.001 and");
}

TEST_CASE("checkpoint config: unknown mode, interval and enabled values list the valid ones")
{
  check_rejected("mode: lazy", "checkpoint.mode", "lazy", "sync, async");
  check_rejected("interval: 0", "checkpoint.interval", "0", "fixed, young, daly");
  check_rejected("interval: Daly", "checkpoint.interval", "Daly", "fixed, young, daly");
  check_rejected("enabled: maybe", "checkpoint.enabled", "maybe", "true, false");
}

TEST_CASE("checkpoint config: job types must be known trace names and at least one")
{
  check_rejected("job_types: [Pretrain, Training]", "checkpoint.job_types.1", "Training", "Pretrain, Eval, SFT");
  check_rejected("job_types: [pretrain]", "checkpoint.job_types.0", "pretrain", "unknown job type");
  check_rejected("job_types: [Pretrain, Pretrain]", "checkpoint.job_types.1", "Pretrain", "listed twice");
  check_rejected("job_types: []", "checkpoint.job_types", "<list>", "at least one job type");
  check_rejected("job_types: Pretrain", "checkpoint.job_types", "Pretrain", "expected a list");
}

TEST_CASE("checkpoint config: model size rules must be valid and strictly increasing in GPUs")
{
  check_rejected("model_sizes: [{max_gpus: 64, params_b: 7}, {max_gpus: 64, params_b: 20}]",
                 "checkpoint.model_sizes.1.max_gpus", "64", "increase strictly");
  check_rejected("model_sizes: [{max_gpus: 256, params_b: 20}, {max_gpus: 64, params_b: 7}]",
                 "checkpoint.model_sizes.1.max_gpus", "64", "previous rule has max_gpus 256");
  check_rejected("model_sizes: [{max_gpus: 64, params_b: 0}]", "checkpoint.model_sizes.0.params_b", "0",
                 "a number between 1e-06 and 100000");
  check_rejected("model_sizes: [{max_gpus: 64, params_b: -7}]", "checkpoint.model_sizes.0.params_b", "-7",
                 "a number between 1e-06 and 100000");
  check_rejected("model_sizes: [{max_gpus: 64, params_b: 1e6}]", "checkpoint.model_sizes.0.params_b", "1e6",
                 "and 100000");
  check_rejected("model_sizes: [{max_gpus: 0, params_b: 7}]", "checkpoint.model_sizes.0.max_gpus", "0",
                 "an integer between 1 and");
  check_rejected("model_sizes: [{max_gpus: 64}]", "checkpoint.model_sizes.0.params_b", "", "missing required key");
  check_rejected("model_sizes: [{max_gpus: 64, params_b: 7, dtype: bf16}]", "checkpoint.model_sizes.0.dtype", "",
                 "valid keys here: max_gpus, params_b");
  check_rejected("model_sizes: [7]", "checkpoint.model_sizes.0", "7", "expected a map");
  check_rejected("model_sizes: [~]", "checkpoint.model_sizes.0", "<empty>", "expected a rule");
  // An out-of-order rule is reported even when its size is wrong too.
  const auto errors =
      errors_of(with_checkpoint({"model_sizes: [{max_gpus: 256, params_b: 20}, {max_gpus: 64, params_b: 0}]"}));
  CHECK(errors.size() == 2);
  check_rejected("model_sizes: []", "checkpoint.model_sizes", "<list>", "at least one rule");
}

TEST_CASE("checkpoint config: an unknown key lists the valid ones")
{
  const Diagnostic d = single_error({"interval_min: 30"});
  CHECK(d.key == "checkpoint.interval_min");
  CHECK_THAT(d.message, Contains("unknown key"));
  CHECK_THAT(d.message, Contains("interval_s"));
  CHECK_THAT(d.message, Contains("snapshot_GBps"));
  CHECK_THAT(d.where, Contains("test.yaml:13:"));
}

TEST_CASE("checkpoint config: every problem of the section is reported at once")
{
  const auto errors = errors_of(with_checkpoint({"interval_s: 0", "mfu: 2", "mode: lazy", "colour: red"}));
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].key == "checkpoint.colour"); // unknown keys are reported first
  CHECK(errors[1].key == "checkpoint.mfu");
  CHECK(errors[2].key == "checkpoint.mode");
  CHECK(errors[3].key == "checkpoint.interval_s");
}

TEST_CASE("checkpoint config: a section that is not a map is refused")
{
  const auto errors = errors_of(BASE + "checkpoint: yes\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].key == "checkpoint");
  CHECK_THAT(errors[0].message, Contains("expected a map"));
}
