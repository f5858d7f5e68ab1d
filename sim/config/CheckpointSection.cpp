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
  read_list(m, "job_types",
            "expected at least one job type: " + enum_name_list<JobType>() +
                " (to turn checkpointing off, set checkpoint.enabled: false)",
            out,
            [&](const ConfigNode& item, const std::string& key,
                const std::vector<JobType>& listed) -> std::optional<JobType> {
              const auto type = item.is_scalar() ? parse_enum<JobType>(item.scalar) : std::nullopt;
              if (!type)
                m.checker().error(item, key, "unknown job type; valid types: " + enum_name_list<JobType>());
              else if (std::find(listed.begin(), listed.end(), *type) != listed.end())
                m.checker().error(item, key, "job type listed twice");
              else
                return type;
              return std::nullopt;
            });
}

// One rule {max_gpus: N, params_b: B}; nullopt after reporting it. `previous_max_gpus` is that
// of the last rule whose max_gpus could be read: rules are searched in order for the first
// max_gpus >= the job's GPUs, so out of order a later rule could never match, which is surely
// not what was meant.
std::optional<ModelSizeRule> read_model_size(ConfigChecker& checker, const ConfigNode& item, const std::string& key,
                                             int& previous_max_gpus)
{
  MapReader r(checker, &item, key, {"max_gpus", "params_b"});
  if (!r.ok() || item.kind == ConfigNode::Kind::Null) {
    if (r.ok()) // an empty `-` item: MapReader accepts it as an empty map
      checker.error(item, key, "expected a rule {max_gpus: N, params_b: B}");
    return std::nullopt;
  }
  ModelSizeRule rule;
  const bool has_gpus = r.require("max_gpus") && r.read("max_gpus", rule.max_gpus, integer_between(1, MAX_GPUS));
  const bool has_params =
      r.require("params_b") && r.read("params_b", rule.params_billion, positive_up_to(MAX_PARAMS_BILLION));
  if (!has_gpus)
    return std::nullopt;
  const bool in_order = rule.max_gpus > previous_max_gpus;
  if (!in_order)
    checker.error(*r.get("max_gpus"), r.key_of("max_gpus"),
                  "max_gpus must increase strictly from rule to rule; the previous rule has max_gpus " +
                      std::to_string(previous_max_gpus));
  previous_max_gpus = rule.max_gpus;
  return has_params && in_order ? std::optional<ModelSizeRule>(rule) : std::nullopt;
}

void read_model_sizes(MapReader& m, std::vector<ModelSizeRule>& out)
{
  int previous_max_gpus = 0;
  read_list(m, "model_sizes", "expected at least one rule {max_gpus: N, params_b: B}", out,
            [&](const ConfigNode& item, const std::string& key, const std::vector<ModelSizeRule>&) {
              return read_model_size(m.checker(), item, key, previous_max_gpus);
            });
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
