#include "sim/config/ScenarioLoader.hpp"

#include "models/cluster/Topology.hpp"
#include "models/common/TextFile.hpp"

#include "models/failure/RecordedFailures.hpp"
#include "models/workload/EmpiricalDistribution.hpp"
#include "sim/config/CheckpointSection.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/FailureSection.hpp"
#include "sim/config/OutputSection.hpp"
#include "sim/config/CheckedReader.hpp"
#include "sim/config/ConfigTree.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/WorkloadSection.hpp"
#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>

namespace acmesim {

namespace {

namespace fs = std::filesystem;

using Kind = EmpiricalDistribution::Kind;

// Keys of a pod, which the flat cluster form also accepts at cluster level.
const std::vector<std::string> POD_FIELDS{
    "nodes",        "gpus_per_node",      "cpus_per_node", "gpu_model", "nvlink_bandwidth_GBps", "compute_nics",
    "storage_nics", "nic_bandwidth_Gbps", "storage_nic_bandwidth_Gbps", "fabric"};
const std::vector<std::string> FABRIC_KEYS{"leaf_radix",     "spine_radix",         "oversubscription",
                                           "nodes_per_leaf", "port_bandwidth_Gbps", "link_latency_us"};
const std::vector<std::string> STORAGE_KEYS{"bandwidth_GBps", "latency_us"};
const std::vector<ConfigEntry> NO_ENTRIES;

bool is_pod_field(std::string_view key)
{
  return std::find(POD_FIELDS.begin(), POD_FIELDS.end(), key) != POD_FIELDS.end();
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b)
{
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// --- cluster presets -------------------------------------------------------------------------

// The embedded presets one load uses, each parsed once.
class PresetLibrary {
public:
  explicit PresetLibrary(DiagnosticList& diags) : diags_(diags) {}

  // nullptr if there is no such preset, or its text does not parse (then reported).
  const ConfigNode* find(const std::string& name)
  {
    auto it = cache_.find(name);
    if (it == cache_.end()) {
      std::optional<ConfigNode> tree;
      if (const auto text = embedded_cluster_preset(name))
        tree = parse_config(*text, {"preset " + name, SourceLabel::Style::Line}, diags_);
      it = cache_.emplace(name, std::move(tree)).first;
    }
    return it->second ? &*it->second : nullptr;
  }

private:
  DiagnosticList& diags_;
  std::map<std::string, std::optional<ConfigNode>> cache_;
};

// Expands `cluster.preset` and `cluster.pods.<i>.preset`, so the checks that follow see one
// plain cluster map in which every value still points at the line it came from.
class ClusterResolver {
public:
  ClusterResolver(PresetLibrary& presets, ConfigChecker& checker) : presets_(presets), checker_(checker) {}

  // Whether a preset could not be used: the pod fields it should have supplied are then missing,
  // and saying so would only repeat the error about the preset.
  bool failed() const { return failed_; }

  ConfigNode resolve(const ConfigNode& cluster)
  {
    ConfigNode merged = merge_preset(cluster, "cluster", 0);
    if (ConfigNode* pods = merged.find("pods"); pods && pods->is_list())
      for (std::size_t i = 0; i < pods->items.size(); ++i)
        pods->items[i] = resolve_pod(pods->items[i], "cluster.pods." + std::to_string(i));
    return merged;
  }

private:
  // A preset file may name a preset itself; this bounds such chains (and cycles).
  static constexpr int MAX_DEPTH = 8;

  // The preset a `preset:` entry names; nullptr after reporting an unknown one.
  const ConfigNode* preset_of(const ConfigEntry& entry, const std::string& key)
  {
    const std::string valid = "valid presets: " + join_names(cluster_preset_names());
    const ConfigNode* preset = nullptr;
    if (!entry.value.is_scalar())
      checker_.error(entry.value, key, "expected a preset name; " + valid);
    else if (!embedded_cluster_preset(entry.value.scalar))
      checker_.error(entry.value, key, "unknown cluster preset; " + valid);
    else
      preset = presets_.find(entry.value.scalar);
    failed_ = failed_ || !preset;
    return preset;
  }

  // `cluster` laid over the preset it names (deep merge: maps merge, scalars and lists replace).
  ConfigNode merge_preset(const ConfigNode& cluster, const std::string& key, int depth)
  {
    const ConfigEntry* preset_entry = cluster.find_entry("preset");
    if (!preset_entry)
      return cluster;
    ConfigNode overlay = cluster;
    overlay.erase("preset");
    const ConfigNode* preset = preset_of(*preset_entry, key + ".preset");
    if (!preset)
      return overlay;
    if (depth >= MAX_DEPTH) {
      checker_.error(preset_entry->value, key + ".preset", "presets name each other in a cycle");
      failed_ = true;
      return overlay;
    }
    ConfigNode base = merge_preset(*preset, key, depth + 1);
    if (!base.is_map())
      base = ConfigNode::make_map(preset->where);
    if (!base.find("name"))
      base.set("name", preset_entry->key_where,
               ConfigNode::make_scalar(preset_entry->value.scalar, preset_entry->value.where));
    // A pod list of the user's own describes every pod: the preset's single-pod fields must not
    // leak next to it (where they would trip the multi-pod check on lines the user never wrote).
    if (overlay.find("pods"))
      for (const auto& field : POD_FIELDS)
        base.erase(field);
    deep_merge(base, overlay);
    return base;
  }

  // A pod with `preset: X` takes X's pod fields (not its storage), named X unless it says otherwise.
  ConfigNode resolve_pod(const ConfigNode& pod, const std::string& key)
  {
    const ConfigEntry* preset_entry = pod.find_entry("preset");
    if (!preset_entry)
      return pod;
    ConfigNode overlay = pod;
    overlay.erase("preset");
    const ConfigNode* preset = preset_of(*preset_entry, key + ".preset");
    if (!preset)
      return overlay;
    const ConfigNode full = merge_preset(*preset, key, 1);
    if (full.find("pods")) {
      checker_.error(preset_entry->value, key + ".preset",
                     "preset '" + preset_entry->value.scalar +
                         "' has several pods; a pod can only use a single-pod preset");
      failed_ = true;
      return overlay;
    }
    ConfigNode base = ConfigNode::make_map(pod.where);
    base.set("name", preset_entry->key_where,
             ConfigNode::make_scalar(preset_entry->value.scalar, preset_entry->value.where));
    for (const auto& entry : full.entries)
      if (is_pod_field(entry.key))
        base.set(entry.key, entry.key_where, entry.value);
    deep_merge(base, overlay);
    return base;
  }

  PresetLibrary& presets_;
  ConfigChecker& checker_;
  bool failed_ = false;
};

// --- cluster ---------------------------------------------------------------------------------

// Sanity bounds, far above any real cluster (Acme has 588 nodes and 40-port switches), that
// keep GPU counts within int and stop a typo from building a graph of a billion switches.
constexpr double MAX_NODES = 100000;
constexpr double MAX_RADIX = 4096;

void read_pod_fields(MapReader& m, PodSpec& pod, bool complete)
{
  if (complete)
    m.require("nodes");
  m.read("nodes", pod.nodes, integer_between(1, MAX_NODES));
  m.read("gpus_per_node", pod.gpus_per_node, integer_between(1, 64));
  m.read("cpus_per_node", pod.cpus_per_node, integer_between(1, 65536));
  m.read("gpu_model", pod.gpu_model);
  m.read("nvlink_bandwidth_GBps", pod.nvlink_bandwidth_GBps, positive());
  m.read("compute_nics", pod.compute_nics, integer_between(1, 64));
  m.read("storage_nics", pod.storage_nics, integer_between(0, 64));
  m.read("nic_bandwidth_Gbps", pod.nic_bandwidth_Gbps, positive());
  m.read("storage_nic_bandwidth_Gbps", pod.storage_nic_bandwidth_Gbps, at_least(0));

  MapReader f(m.checker(), m.get("fabric"), m.key_of("fabric"), FABRIC_KEYS);
  FabricSpec& fabric = pod.fabric;
  f.read("leaf_radix", fabric.leaf_radix, integer_between(2, MAX_RADIX)); // at least one port down and one up
  f.read("spine_radix", fabric.spine_radix, integer_between(1, MAX_RADIX));
  f.read("oversubscription", fabric.oversubscription, positive());
  f.read("nodes_per_leaf", fabric.nodes_per_leaf, integer_between(0, MAX_RADIX));
  f.read("port_bandwidth_Gbps", fabric.port_bandwidth_Gbps, positive());
  f.read("link_latency_us", fabric.link_latency_us, at_least(0));
}

// `cluster` has its presets expanded already; `complete` is false if some preset could not be.
ClusterSpec read_cluster(ConfigChecker& checker, const ConfigNode& cluster, bool complete)
{
  static const std::vector<std::string> keys = concat({"preset", "name", "pods", "storage"}, POD_FIELDS);
  static const std::vector<std::string> pod_keys = concat({"preset", "name"}, POD_FIELDS);

  ClusterSpec spec;
  spec.name = "custom";
  MapReader m(checker, &cluster, "cluster", keys);
  if (!m.ok())
    return spec;
  m.read("name", spec.name);
  MapReader storage(checker, m.get("storage"), "cluster.storage", STORAGE_KEYS);
  storage.read("bandwidth_GBps", spec.storage.bandwidth_GBps, positive());
  storage.read("latency_us", spec.storage.latency_us, at_least(0));

  const ConfigNode* pods = m.get("pods");
  if (!pods) { // flat form: one pod named after the cluster
    PodSpec pod;
    pod.name = spec.name;
    read_pod_fields(m, pod, complete);
    spec.pods.push_back(std::move(pod));
    return spec;
  }

  for (const auto& entry : cluster.entries)
    if (is_pod_field(entry.key))
      checker.error(entry.key_where, "cluster." + entry.key, entry.value.text(),
                    "cannot set pod field '" + entry.key + "' on a multi-pod cluster; set cluster.pods.<i>." +
                        entry.key);
  if (!checker.expect_list(*pods, "cluster.pods"))
    return spec;
  if (pods->items.empty())
    checker.error(*pods, "cluster.pods", "expected at least one pod");
  for (std::size_t i = 0; i < pods->items.size(); ++i) {
    MapReader p(checker, &pods->items[i], "cluster.pods." + std::to_string(i), pod_keys);
    if (!p.ok())
      continue;
    PodSpec pod;
    pod.name = "pod" + std::to_string(i);
    p.read("name", pod.name);
    read_pod_fields(p, pod, complete);
    // Results and messages refer to pods by name, so a name must pick out one pod.
    const auto same_name = [&](const PodSpec& other) { return other.name == pod.name; };
    if (std::any_of(spec.pods.begin(), spec.pods.end(), same_name))
      checker.error(p.get("name") ? p.get("name")->where : p.node()->where, p.key_of("name"), pod.name,
                    "two pods are named '" + pod.name + "'; pod names must be distinct");
    spec.pods.push_back(std::move(pod));
  }
  return spec;
}

// --- scheduler -------------------------------------------------------------------------------

// Reads the parameters of `policy` from map `m` (every key but `fixed_keys`), range-checked
// against its registration, with defaults filled in for those not given.
std::map<std::string, double> read_policy_params(ConfigChecker& checker, MapReader& m, const PolicyInfo& policy,
                                                 const std::string& kind, const std::vector<std::string>& fixed_keys)
{
  std::map<std::string, double> params;
  std::vector<std::string> param_names;
  for (const auto& p : policy.params)
    param_names.push_back(p.name);
  for (const auto& entry : m.node() ? m.node()->entries : NO_ENTRIES) {
    if (std::find(fixed_keys.begin(), fixed_keys.end(), entry.key) != fixed_keys.end())
      continue;
    const std::string key = m.key_of(entry.key);
    const auto param = std::find_if(policy.params.begin(), policy.params.end(),
                                    [&](const ParamSpec& p) { return p.name == entry.key; });
    if (param == policy.params.end()) {
      const std::string accepted = param_names.empty()
                                       ? kind + " '" + policy.name + "' takes no parameters"
                                       : "not a parameter of " + kind + " '" + policy.name +
                                             "'; it accepts: " + join_names(param_names);
      checker.error(entry.key_where, key, "", accepted + " (other valid keys: " + join_names(fixed_keys) + ")");
      continue;
    }
    if (const auto v = checker.number(entry.value, key, {param->min_value, false, param->max_value, param->integer}))
      params[param->name] = *v;
  }
  for (const auto& p : policy.params)
    params.try_emplace(p.name, p.default_value);
  return params;
}

SchedulerSpec read_scheduler(ConfigChecker& checker, const ConfigNode* node)
{
  SchedulerSpec spec;
  MapReader m(checker, node, "scheduler"); // the accepted keys depend on the chosen scheduler
  // A name that is not a string is reported by read(); its parameters cannot be judged then.
  const bool name_ok = !m.get("name") || m.read("name", spec.name);
  const PolicyInfo* scheduler = name_ok ? scheduler_registry().find(spec.name) : nullptr;
  if (name_ok && !scheduler)
    checker.error(*m.get("name"), "scheduler.name",
                  "unknown scheduler; valid schedulers: " + join_names(scheduler_registry().names()));
  if (m.read("placement", spec.placement) && !placement_registry().find(spec.placement))
    checker.error(*m.get("placement"), "scheduler.placement",
                  "unknown placement policy; valid policies: " + join_names(placement_registry().names()));
  if (scheduler)
    spec.params = read_policy_params(checker, m, *scheduler, "scheduler", {"name", "placement"});
  return spec;
}

RecoverySpec read_recovery(ConfigChecker& checker, const ConfigNode* node)
{
  RecoverySpec spec;
  MapReader m(checker, node, "recovery");
  const bool name_ok = !m.get("name") || m.read("name", spec.name);
  const PolicyInfo* policy = name_ok ? recovery_registry().find(spec.name) : nullptr;
  if (name_ok && !policy)
    checker.error(*m.get("name"), "recovery.name",
                  "unknown recovery policy; valid policies: " + join_names(recovery_registry().names()));
  if (policy)
    spec.params = read_policy_params(checker, m, *policy, "recovery policy", {"name"});
  return spec;
}

// --- the whole scenario ----------------------------------------------------------------------

Scenario load(std::string_view text, const std::string& source, const std::string& base_dir,
              const std::vector<std::string>& overrides, const std::string& default_name)
{
  DiagnosticList diags;
  std::optional<ConfigNode> root = parse_config(text, {source, SourceLabel::Style::LineColumn}, diags);
  if (!root) // a syntax error: nothing else can be checked
    throw InputError(diags.items());

  PresetLibrary presets(diags);
  // `--set cluster.pods.1.nodes=10` on a scenario that takes its pods from a preset edits the
  // preset's pod list, copied into the scenario.
  const OverrideFallback from_preset = [&](const std::vector<std::string>& path) -> const ConfigNode* {
    const ConfigNode* cluster = path.size() == 2 && path[0] == "cluster" ? root->find("cluster") : nullptr;
    const ConfigNode* name = cluster ? cluster->find("preset") : nullptr;
    const ConfigNode* preset = name && name->is_scalar() ? presets.find(name->scalar) : nullptr;
    return preset ? preset->find(path[1]) : nullptr;
  };
  for (const auto& o : overrides)
    apply_override(*root, o, diags, from_preset);

  ConfigChecker checker(diags);
  Scenario scenario;
  scenario.name = safe_name(default_name);
  scenario.source = source;
  MapReader top(checker, &*root, "",
                {"name", "seed", "cluster", "workload", "scheduler", "failures", "checkpoint", "recovery", "evaluation",
                 "output"});
  if (top.ok()) {
    if (top.read("name", scenario.name) && !is_safe_name(scenario.name))
      checker.error(*top.get("name"), "name",
                    "expected letters, digits, '.', '_' or '-', not starting with '.' (it names the results "
                    "directory)");
    top.read("seed", scenario.seed);
    if (top.require("cluster")) {
      ClusterResolver resolver(presets, checker);
      const ConfigNode cluster = resolver.resolve(*top.get("cluster"));
      scenario.cluster = read_cluster(checker, cluster, !resolver.failed());
    }
    if (const ConfigNode* evaluation = top.get("evaluation"))
      scenario.evaluation = read_evaluation(checker, *evaluation, base_dir);
    // A scenario of evaluation campaigns alone needs no other workload.
    if (top.get("workload") || !top.get("evaluation")) {
      if (top.require("workload"))
        scenario.workload = read_workload(checker, *top.get("workload"), base_dir);
    }
    scenario.scheduler = read_scheduler(checker, top.get("scheduler"));
    if (const ConfigNode* failures = top.get("failures"))
      scenario.failures = read_failures(checker, *failures, base_dir);
    if (const ConfigNode* checkpoint = top.get("checkpoint"))
      scenario.checkpoint = read_checkpoint(checker, *checkpoint);
    scenario.recovery = read_recovery(checker, top.get("recovery"));
    if (const ConfigNode* output = top.get("output"))
      output_keys().read_map(checker, output, "output", scenario.output);
    for (const auto& pod : scenario.cluster.pods)
      if (scenario.evaluation.enabled && scenario.evaluation.gpus_per_trial > pod.gpus_per_node)
        checker.error(*top.get("evaluation"), "evaluation.gpus_per_trial",
                      "a trial must fit on one node: pod '" + pod.name + "' has " +
                          std::to_string(pod.gpus_per_node) + " GPUs per node");
    const auto& ckpt = scenario.checkpoint;
    if (scenario.evaluation.every_checkpoints > 0 &&
        (!ckpt.enabled ||
         std::find(ckpt.job_types.begin(), ckpt.job_types.end(), JobType::Pretrain) == ckpt.job_types.end()))
      checker.error(*top.get("evaluation"), "evaluation.every_checkpoints",
                    "campaigns are triggered by checkpoints of Pretrain jobs: enable checkpoint (with Pretrain in "
                    "checkpoint.job_types)");
    if (top.get("evaluation") && scenario.failures.source != FailureSpec::Source::None)
      checker.error(*top.get("evaluation"), "evaluation",
                    "evaluation campaigns cannot be combined with failures yet: remove one of the two sections");
  }
  // Fabric shapes that cannot be built (too few switch ports, leaves beyond the spine radix)
  // are found by building the topology; report them with everything else, before any run.
  if (diags.empty()) {
    std::optional<Topology> topology;
    try {
      topology.emplace(scenario.cluster);
    } catch (const InputError& e) {
      for (const auto& d : e.diagnostics())
        diags.add(Diagnostic{source + " (cluster)", d.key, d.value, d.message});
    }
    // Failure targets name nodes and leaf switches: they are checked against the built cluster.
    if (topology) {
      if (const auto spares = scenario.recovery.params.find("spare_nodes"); spares != scenario.recovery.params.end())
        for (const auto& pod : scenario.cluster.pods)
          if (spares->second >= pod.nodes)
            diags.add(Diagnostic{source, "recovery.spare_nodes", format_number(spares->second),
                                 "spare nodes per pod must leave nodes to schedule: pod '" + pod.name + "' has " +
                                     std::to_string(pod.nodes)});
      check_failures_against_topology(scenario.failures, *topology, source, diags);
      if (diags.empty() && scenario.failures.source == FailureSpec::Source::Recorded) {
        try {
          scenario.recorded_failures = read_failure_list(scenario.failures.recorded_path, *topology);
        } catch (const InputError& e) {
          for (const auto& d : e.diagnostics())
            diags.add(d);
        }
      }
    }
  }
  diags.throw_if_any();
  return scenario;
}

} // namespace

// Scenario names become directory names under results/: keep them to one plain path part.
namespace {
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }
} // namespace

bool is_safe_name(const std::string& name)
{
  return !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), is_name_char);
}

std::string safe_name(std::string name)
{
  for (char& c : name)
    if (!is_name_char(c))
      c = '_';
  if (name.empty() || name.front() == '.')
    name.insert(name.begin(), '_');
  return name;
}

Scenario load_scenario_text(const std::string& yaml_text, const std::string& source_name, const std::string& base_dir,
                            const std::vector<std::string>& overrides)
{
  std::string name = fs::path(source_name).stem().string();
  return load(yaml_text, source_name, base_dir, overrides, name.empty() ? "scenario" : name);
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides)
{
  const auto text = read_text_file(path);
  if (!text)
    throw InputError(Diagnostic{path, "", "", "cannot open the scenario file"});
  const fs::path p(path);
  const std::string base_dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  return load(*text, path, base_dir, overrides, p.stem().string());
}

Scenario load_default_scenario(const std::vector<std::string>& overrides)
{
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return load(embedded_default_scenario(), "<embedded default>", ec ? std::string(".") : cwd.string(), overrides,
              "default");
}

} // namespace acmesim
