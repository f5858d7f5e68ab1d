#include "sim/config/CheckpointSection.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace acmesim {

namespace {

// Bounds past which a value is a typing or unit error rather than a what-if.
constexpr double MAX_PARAMS_BILLION = 1e5;  // 100T parameters
constexpr double MAX_BYTES_PER_PARAM = 1e3; // full training state is about 14
constexpr double MAX_PEAK_TFLOPS = 1e6;     // an A100 is 312
constexpr double MAX_TOKENS_PER_STEP = 1e12;
constexpr double MAX_SECONDS = 1e9; // about 31.7 years, as for trace times
constexpr double MAX_SNAPSHOT_GBPS = 1e4;
constexpr int MAX_GPUS = 1000000;

const std::vector<std::string> KEYS{
    "enabled", "job_types", "model_sizes", "bytes_per_param", "peak_tflops_per_gpu", "mfu", "tokens_per_step",
    "step_time_s", "mode", "interval", "interval_s", "interval_steps", "snapshot_GBps", "init_s"};

void read_job_types(MapReader& m, std::vector<JobType>& out)
{
  const ConfigNode* node = m.get("job_types");
  const std::string key = m.key_of("job_types");
  ConfigChecker& checker = m.checker();
  if (!node || !checker.expect_list(*node, key))
    return;
  if (node->items.empty()) {
    checker.error(*node, key, "expected at least one job type: " + enum_name_list<JobType>() +
                                  " (to turn checkpointing off, set checkpoint.enabled: false)");
    return;
  }
  std::vector<JobType> types;
  bool ok = true;
  for (std::size_t i = 0; i < node->items.size(); ++i) {
    const ConfigNode& item = node->items[i];
    const std::string item_key = join_key(key, std::to_string(i));
    const auto type = item.is_scalar() ? parse_enum<JobType>(item.scalar) : std::nullopt;
    if (!type) {
      checker.error(item, item_key, "unknown job type; valid types: " + enum_name_list<JobType>());
      ok = false;
    } else if (std::find(types.begin(), types.end(), *type) != types.end()) {
      checker.error(item, item_key, "job type listed twice");
      ok = false;
    } else {
      types.push_back(*type);
    }
  }
  if (ok)
    out = std::move(types);
}

void read_model_sizes(MapReader& m, std::vector<ModelSizeRule>& out)
{
  const ConfigNode* node = m.get("model_sizes");
  const std::string key = m.key_of("model_sizes");
  ConfigChecker& checker = m.checker();
  if (!node || !checker.expect_list(*node, key))
    return;
  if (node->items.empty()) {
    checker.error(*node, key, "expected at least one rule {max_gpus: N, params_b: B}");
    return;
  }
  std::vector<ModelSizeRule> rules;
  bool ok = true;
  int previous_max_gpus = 0; // of the last rule whose max_gpus could be read
  for (std::size_t i = 0; i < node->items.size(); ++i) {
    const std::string rule_key = join_key(key, std::to_string(i));
    MapReader r(checker, &node->items[i], rule_key, {"max_gpus", "params_b"});
    if (!r.ok() || node->items[i].kind == ConfigNode::Kind::Null) {
      if (r.ok()) // an empty `-` item: MapReader accepts it as an empty map
        checker.error(node->items[i], rule_key, "expected a rule {max_gpus: N, params_b: B}");
      ok = false;
      continue;
    }
    ModelSizeRule rule;
    const bool has_gpus = r.require("max_gpus") && r.read("max_gpus", rule.max_gpus, integer_between(1, MAX_GPUS));
    const bool has_params =
        r.require("params_b") && r.read("params_b", rule.params_billion, positive_up_to(MAX_PARAMS_BILLION));
    ok = ok && has_gpus && has_params;
    if (!has_gpus)
      continue;
    // Rules are searched in order for the first max_gpus >= the job's GPUs: out of order, a
    // later rule could never match, which is surely not what was meant.
    if (rule.max_gpus <= previous_max_gpus) {
      checker.error(*r.get("max_gpus"), r.key_of("max_gpus"),
                    "max_gpus must increase strictly from rule to rule; the previous rule has max_gpus " +
                        std::to_string(previous_max_gpus));
      ok = false;
    }
    previous_max_gpus = rule.max_gpus;
    rules.push_back(rule);
  }
  if (ok)
    out = std::move(rules);
}

} // namespace

CheckpointSpec read_checkpoint(ConfigChecker& checker, const ConfigNode& node)
{
  CheckpointSpec spec;
  MapReader m(checker, &node, "checkpoint", KEYS);
  if (!m.ok())
    return spec;
  spec.enabled = true; // writing the section asks for checkpoints unless it says otherwise
  m.read("enabled", spec.enabled);
  read_job_types(m, spec.job_types);
  read_model_sizes(m, spec.model_sizes);
  m.read("bytes_per_param", spec.bytes_per_param, positive_up_to(MAX_BYTES_PER_PARAM));
  m.read("peak_tflops_per_gpu", spec.peak_tflops_per_gpu, positive_up_to(MAX_PEAK_TFLOPS));
  m.read("mfu", spec.mfu, positive_up_to(1));
  m.read("tokens_per_step", spec.tokens_per_step, positive_up_to(MAX_TOKENS_PER_STEP));
  m.read("step_time_s", spec.step_time_s, number_between(0, MAX_SECONDS));

  m.read("mode", spec.mode);
  m.read("interval", spec.interval_policy);

  // A zero interval would mean checkpointing without end; say how to get what was likely meant.
  if (const ConfigNode* n = m.get("interval_s")) {
    const auto v = checker.number(*n, m.key_of("interval_s"), any_number());
    if (v && *v <= 0)
      checker.error(*n, m.key_of("interval_s"),
                    "expected a number of seconds > 0 between checkpoints; to stop checkpointing set "
                    "checkpoint.enabled: false");
    else if (v && *v > MAX_SECONDS)
      checker.error(*n, m.key_of("interval_s"), "expected at most " + format_number(MAX_SECONDS) + " seconds");
    else if (v)
      spec.interval_s = *v;
  }
  m.read("interval_steps", spec.interval_steps, integer_between(0, MAX_SECONDS));
  m.read("snapshot_GBps", spec.snapshot_GBps, positive_up_to(MAX_SNAPSHOT_GBPS));
  m.read("init_s", spec.init_s, number_between(0, MAX_SECONDS));
  return spec;
}

} // namespace acmesim
