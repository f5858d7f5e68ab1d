#include "sim/config/CheckpointSection.hpp"
#include "sim/config/HardwareDefaults.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/keys/NamedKeys.hpp"

#include <algorithm>

namespace acmesim {

namespace {

// Bounds past which a value is a typing or unit error rather than a what-if.
constexpr double MAX_STEPS = 1e9; // between checkpoints
constexpr int MAX_GPUS = 1000000;

using C = CheckpointSpec;

const KeyTable<ModelSizeRule>& model_size_keys()
{
  static const KeyTable<ModelSizeRule> keys({
      number_key("max_gpus", &ModelSizeRule::max_gpus, integer_between(1, MAX_GPUS), "GPUs",
                 "the rule applies to jobs of at most this many GPUs")
          .required(),
      number_key("params_b", &ModelSizeRule::params_billion, physical::PARAMS_BILLION,
                 "billion parameters", "the size of the model such a job trains")
          .required(),
  });
  return keys;
}

// One rule {max_gpus: N, params_b: B}; nullopt after reporting it. `previous_max_gpus` is that
// of the last rule whose max_gpus could be read: rules are searched in order for the first
// max_gpus >= the job's GPUs, so out of order a later rule could never match, which is surely
// not what was meant.
std::optional<ModelSizeRule> read_model_size(ConfigChecker& checker, const ConfigNode& item, const std::string& key,
                                             int& previous_max_gpus)
{
  MapReader r(checker, &item, key, model_size_keys().names());
  if (!r.ok() || item.kind == ConfigNode::Kind::Null) {
    if (r.ok()) // an empty `-` item: MapReader accepts it as an empty map
      checker.error(item, key, "expected a rule {max_gpus: N, params_b: B}");
    return std::nullopt;
  }
  ModelSizeRule rule;
  const bool complete = model_size_keys().read(r, rule);
  if (rule.max_gpus == 0) // missing or refused (reported): the order cannot be judged
    return std::nullopt;
  const bool in_order = rule.max_gpus > previous_max_gpus;
  if (!in_order)
    checker.error(*r.get("max_gpus"), r.key_of("max_gpus"),
                  "max_gpus must increase strictly from rule to rule; the previous rule has max_gpus " +
                      std::to_string(previous_max_gpus));
  previous_max_gpus = rule.max_gpus;
  return complete && in_order ? std::optional<ModelSizeRule>(rule) : std::nullopt;
}

bool read_model_sizes(MapReader& m, const std::string& name, C& spec)
{
  int previous_max_gpus = 0;
  return read_list(m, name, "expected at least one rule {max_gpus: N, params_b: B}", spec.model_sizes,
                   [&](const ConfigNode& item, const std::string& key, const std::vector<ModelSizeRule>&) {
                     return read_model_size(m.checker(), item, key, previous_max_gpus);
                   });
}

Json model_sizes_json(const C& spec)
{
  Json rules = Json::array();
  for (const auto& rule : spec.model_sizes)
    rules.push_back(model_size_keys().echo(rule));
  return rules;
}

// A zero interval would mean checkpointing without end; say how to get what was likely meant.
bool read_interval(ConfigChecker& checker, const ConfigNode& node, const std::string& key, C& spec)
{
  const auto v = checker.number(node, key, any_number());
  if (!v)
    return false;
  if (physical::SECONDS.contains(*v)) {
    spec.interval_s = *v;
    return true;
  }
  if (*v <= 0)
    checker.error(node, key,
                  "expected a number of seconds > 0 between checkpoints; to stop checkpointing set "
                  "checkpoint.enabled: false");
  else
    checker.error(node, key, "expected " + physical::SECONDS.describe() + " (seconds)");
  return false;
}

// What a checkpointing job trains, and how fast.
std::vector<ConfigKey<C>> training_keys()
{
  return {
      names_key<JobType>("job_types", &C::job_types, {"job type", "job types"},
                         "expected at least one job type: " + enum_name_list<JobType>() +
                             " (to turn checkpointing off, set checkpoint.enabled: false)",
                         "the job types that train with checkpoints"),
      ConfigKey<C>(other_doc("model_sizes", "list of maps", "rules, max_gpus increasing",
                             "the model a job trains, by its GPUs: the first rule whose max_gpus >= the job's "
                             "GPUs, else the last"),
                   read_model_sizes, model_sizes_json,
                   [](const std::string& path, const C&) {
                     return model_size_keys().docs(join_key(path, "<i>"), ModelSizeRule{});
                   }),
      number_key("bytes_per_param", &C::bytes_per_param, physical::BYTES_PER_PARAM, "bytes",
                 "checkpoint bytes per model parameter (14: bf16 weights, fp32 master copy, Adam moments)"),
      value_key("precision", &C::precision,
                "the number format training computes in: the cluster's GPUs' peak in it (cluster gpu.peak_tflops) "
                "is the step model's, unless peak_tflops_per_gpu is given"),
      from_hardware("checkpoint", number_key("peak_tflops_per_gpu", &C::peak_tflops_per_gpu, physical::TFLOPS,
                                             "TFLOP/s", "peak dense throughput of one GPU")),
      number_key("mfu", &C::mfu, physical::UTILISATION, NO_UNIT, "model FLOPs utilisation"),
      number_key("tokens_per_step", &C::tokens_per_step, physical::TOKENS, "tokens",
                 "tokens of one training step"),
      number_key("step_time_s", &C::step_time_s, physical::SECONDS_OR_NONE, "s",
                 "seconds of one training step; 0: 6 x parameters x tokens_per_step / (GPUs x peak x mfu)"),
  };
}

// How and when it writes checkpoints, and what a restart costs.
std::vector<ConfigKey<C>> writing_keys()
{
  return {
      value_key("mode", &C::mode,
                "sync: training waits for the write; async: it waits for a snapshot to host memory, and the "
                "upload overlaps training"),
      value_key("interval", &C::interval_policy,
                "when to checkpoint: fixed (interval_s or interval_steps), or the optimum of young or daly"),
      number_key("interval_s", &C::interval_s, physical::SECONDS, "s",
                 "fixed: seconds of training between checkpoints")
          .read_with(node_reader<C>(read_interval)),
      number_key("interval_steps", &C::interval_steps, integer_between(0, MAX_STEPS), "steps",
                 "fixed: training steps between checkpoints; > 0 takes the place of interval_s"),
      number_key("snapshot_GBps", &C::snapshot_GBps, physical::BANDWIDTH, "GB/s",
                 "async: bandwidth of the copy of a node's shard to host memory"),
      number_key("init_s", &C::init_s, physical::SECONDS_OR_NONE, "s",
                 "paid on every start after an interruption (launch, framework and data loader)"),
  };
}

const KeyTable<C>& checkpoint_keys()
{
  static const KeyTable<C> keys({
      {value_key("enabled", &C::enabled, "checkpoints on; false turns a written section off")},
      training_keys(),
      writing_keys(),
  });
  return keys;
}

} // namespace

CheckpointSpec checkpoint_defaults()
{
  CheckpointSpec spec;
  spec.enabled = true;
  return spec;
}

CheckpointSpec read_checkpoint(ConfigChecker& checker, const ConfigNode& node)
{
  MapReader m(checker, &node, "checkpoint", checkpoint_keys().names());
  if (!m.ok())
    return CheckpointSpec{};
  CheckpointSpec spec = checkpoint_defaults();
  checkpoint_keys().read(m, spec);
  return spec;
}

template <> Json section_echo(const CheckpointSpec& spec) { return echo_if_enabled(checkpoint_keys(), spec); }

template <> std::vector<KeyDoc> section_key_docs<CheckpointSpec>(const std::string& path)
{
  return checkpoint_keys().docs(path, checkpoint_defaults());
}

} // namespace acmesim
