#include "sim/config/ScenarioLoader.hpp"

#include "models/cluster/Topology.hpp"
#include "models/common/Text.hpp"
#include "models/common/TextFile.hpp"
#include "models/failure/RecordedFailures.hpp"
#include "sim/config/ClusterResolver.hpp"
#include "sim/config/ClusterSection.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/FailureSection.hpp"
#include "sim/config/HardwareDefaults.hpp"
#include "sim/config/NetworkSection.hpp"
#include "sim/config/NetworkReference.hpp"
#include "sim/config/PresetLibrary.hpp"
#include "sim/config/ScenarioKeys.hpp"
#include "sim/config/SwfHeaderCluster.hpp"
#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/ConfigTree.hpp"

#include <algorithm>
#include <filesystem>

namespace acmesim {

namespace {

namespace fs = std::filesystem;

// A scenario without `cluster:` that replays an SWF log (`trace_node` is its workload.trace) runs
// on the machine of the log's header; any other needs the section.
void read_cluster_from_trace(ConfigChecker& checker, MapReader& top, const ConfigNode& trace_node, Scenario& scenario)
{
  const std::optional<TraceSpec>& trace = scenario.workload.trace;
  std::error_code ec;
  // Only a regular file: a missing one is reported already, and a pipe must not lose its header.
  if (!trace || trace->format != TraceFormat::Swf || !fs::is_regular_file(trace->path, ec)) {
    top.require("cluster");
    return;
  }
  if (const auto cluster = cluster_from_swf_header(*trace, trace_node, checker))
    scenario.cluster = read_cluster(checker, *cluster, true);
}

// A CPU machine's jobs (an SWF log's) are not training jobs: there are no rings of gradients to
// model, so the network model is off; asking for it is an error rather than a silent change.
void no_training_traffic_on_cpus(ConfigChecker& checker, MapReader& top, Scenario& scenario)
{
  if (scenario.cluster.processors != ProcessorKind::Cpu)
    return;
  const ConfigNode* network = top.get("network");
  const ConfigNode* model = network && network->is_map() ? network->find(NETWORK_MODEL) : nullptr;
  if (model && scenario.network.model != NetworkModel::Off)
    checker.error(*model, NETWORK_MODEL_KEY,
                  "a CPU machine (" + PROCESSORS_KEY + ": cpu) runs no training traffic to model: set off, or "
                  "leave it out");
  scenario.network.model = NetworkModel::Off;
}

// Every section, through the scenario's table (ScenarioKeys.cpp), in its order. Two sections may
// be left out in a way the table cannot tell: the cluster when the workload is an SWF log whose
// header describes its machine, the workload when evaluation campaigns are the whole workload.
void read_sections(ConfigChecker& checker, MapReader& top, Scenario& scenario)
{
  const ConfigNode* workload = top.get("workload");
  // Only a trace's header may stand in for the section; without one it is missing here.
  const ConfigNode* trace_node = workload ? workload->find("trace") : nullptr;
  if (!top.get("cluster") && !trace_node)
    top.require("cluster");
  if (!workload && !top.get("evaluation"))
    top.require("workload");
  scenario_keys().read(top, scenario);
  if (!top.get("cluster") && trace_node)
    read_cluster_from_trace(checker, top, *trace_node, scenario);
  apply_hardware_defaults(checker, top, scenario);
  no_training_traffic_on_cpus(checker, top, scenario);
}

// What one section asks of another.
void check_across_sections(ConfigChecker& checker, const MapReader& top, const Scenario& scenario)
{
  for (const auto& pod : scenario.cluster.pods)
    if (scenario.evaluation.enabled && scenario.evaluation.gpus_per_trial > pod.gpus_per_node)
      checker.error(*top.get("evaluation"), "evaluation.gpus_per_trial",
                    "a trial must fit on one node: pod '" + pod.name + "' has " + std::to_string(pod.gpus_per_node) +
                        " GPUs per node");
  if (scenario.evaluation.every_checkpoints > 0 && !scenario.checkpoint.covers(JobType::Pretrain))
    checker.error(*top.get("evaluation"), "evaluation.every_checkpoints",
                  "campaigns are triggered by checkpoints of Pretrain jobs: enable checkpoint (with Pretrain in "
                  "checkpoint.job_types)");
  for (const auto& reference : scenario.network.reference) {
    const std::string& pod = reference.first;
    if (std::none_of(scenario.cluster.pods.begin(), scenario.cluster.pods.end(),
                     [&](const PodSpec& p) { return p.name == pod; }))
      checker.error(*top.get("network"), "network.reference." + pod, "the cluster has no pod of this name");
  }
  if (scenario.network.on()) {
    // MFU is end to end: compute alone cannot be slower than the whole step (docs/network.md).
    // Reported where the ceiling is written, else where the MFU is, else at the scenario's top.
    const ConfigNode* network = top.get("network");
    const ConfigNode* checkpoint = top.get("checkpoint");
    const ConfigNode* mfu = checkpoint ? checkpoint->find("mfu") : nullptr;
    const auto check_ceiling = [&](const CommSpec& comm, const std::string& key, const ConfigNode* section) {
      if (comm.max_compute_mfu >= scenario.checkpoint.mfu)
        return;
      const ConfigNode* ceiling = section ? section->find("max_compute_mfu") : nullptr;
      checker.error(ceiling ? ceiling->where : mfu ? mfu->where : top.node()->where, key,
                    format_number(comm.max_compute_mfu),
                    "below checkpoint.mfu (" + format_number(scenario.checkpoint.mfu) +
                        "): compute alone cannot reach less of the peak than the whole step, communication included");
    };
    check_ceiling(scenario.network.comm, "network.max_compute_mfu", network);
    const ConfigNode* types = network ? network->find("job_types") : nullptr;
    for (const auto& [type, comm] : scenario.network.job_types) {
      const std::string name(to_string(type));
      check_ceiling(comm, "network.job_types." + name + ".max_compute_mfu", types ? types->find(name) : nullptr);
    }
  }
  if (scenario.evaluation.enabled && scenario.scheduler.pods == PodScheduling::Separate)
    checker.error(*top.get("evaluation"), "evaluation",
                  "evaluation campaigns need one scheduler for all pods: their trials have no home pod "
                  "(remove scheduler.pods: separate)");
  if (top.get("evaluation") && scenario.failures.source != FailureSpec::Source::None)
    checker.error(*top.get("evaluation"), "evaluation",
                  "evaluation campaigns cannot be combined with failures yet: remove one of the two sections");
}

// What only the built cluster can tell: fabric shapes that cannot be built (too few switch
// ports, leaves beyond the spine radix), spare nodes that leave none to schedule, failure
// targets that name no node or leaf switch. Reported with everything else, before any run.
void check_against_cluster(const std::string& source, Scenario& scenario, DiagnosticList& diags)
{
  std::optional<Topology> topology;
  try {
    topology.emplace(scenario.cluster);
  } catch (const InputError& e) {
    for (const auto& d : e.diagnostics())
      diags.add(Diagnostic{source + " (cluster)", d.key, d.value, d.message});
    return;
  }
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

bool changes_cluster(const std::vector<std::string>& overrides)
{
  return std::any_of(overrides.begin(), overrides.end(),
                     [](const std::string& o) { return o.starts_with("cluster.") || o.starts_with("cluster="); });
}

// The cluster as the scenario's text describes it, before `--set`: the fabric its recorded
// durations belong to. When that text does not read on its own (an override mends it), or the
// cluster comes from an SWF header, the cluster as run stands in.
ClusterSpec cluster_as_written(const ConfigNode& written_root, const std::string& base_dir, const ClusterSpec& as_run)
{
  const ConfigNode* cluster = written_root.find("cluster");
  if (!cluster)
    return as_run;
  DiagnosticList scratch;
  ConfigChecker checker(scratch, base_dir);
  ClusterSpec written = read_cluster_section(checker, *cluster);
  return scratch.empty() ? written : as_run;
}

Scenario load(std::string_view text, const std::string& source, const std::string& base_dir,
              const std::vector<std::string>& overrides, const std::string& default_name)
{
  DiagnosticList diags;
  std::optional<ConfigNode> root = parse_config(text, {source, SourceLabel::Style::LineColumn}, diags);
  if (!root) // a syntax error: nothing else can be checked
    throw InputError(diags.items());

  // `--set cluster.pods.1.nodes=10` on a scenario that takes its pods from a preset edits the
  // preset's pod list, copied into the scenario. (The presets' own problems are the cluster
  // section's to report, when it reads them.)
  DiagnosticList preset_diags;
  PresetLibrary presets(preset_diags);
  const OverrideFallback from_preset = [&](const std::vector<std::string>& path) -> const ConfigNode* {
    const ConfigNode* cluster = path.size() == 2 && path[0] == "cluster" ? root->find("cluster") : nullptr;
    const ConfigNode* name = cluster ? cluster->find("preset") : nullptr;
    const ConfigNode* preset = name && name->is_scalar() ? presets.find(name->scalar) : nullptr;
    return preset ? preset->find(path[1]) : nullptr;
  };
  const std::optional<ConfigNode> written_root = changes_cluster(overrides) ? root : std::nullopt;
  for (const auto& o : overrides)
    apply_override(*root, o, diags, from_preset);

  ConfigChecker checker(diags, base_dir);
  Scenario scenario;
  scenario.name = safe_name(default_name);
  scenario.source = source;
  MapReader top(checker, &*root, "", scenario_keys().names());
  if (top.ok()) {
    read_sections(checker, top, scenario);
    check_across_sections(checker, top, scenario);
  }
  if (diags.empty())
    check_against_cluster(source, scenario, diags);
  if (diags.empty()) {
    pin_network_reference(scenario.network, scenario.cluster,
                          written_root ? cluster_as_written(*written_root, base_dir, scenario.cluster)
                                       : scenario.cluster);
    return scenario;
  }
  // A problem found in the file's text may come from an override (a cluster too large after
  // --set cluster.nodes=...): such messages say which overrides were applied.
  std::vector<Diagnostic> items = diags.items();
  if (!overrides.empty()) {
    std::string applied;
    for (const auto& o : overrides)
      applied += (applied.empty() ? "" : ", ") + ("--set " + o);
    for (Diagnostic& d : items)
      if (!d.where.starts_with("--set "))
        d.where += " (with " + applied + ")";
  }
  throw InputError(std::move(items));
}

} // namespace

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

Scenario load_scenario_or_default(const std::string& path, const std::vector<std::string>& overrides)
{
  return path.empty() ? load_default_scenario(overrides) : load_scenario_file(path, overrides);
}

} // namespace acmesim
