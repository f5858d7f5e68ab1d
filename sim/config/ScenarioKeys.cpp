#include "sim/config/ScenarioKeys.hpp"

#include "models/common/Text.hpp"
#include "sim/config/CheckpointSection.hpp"
#include "sim/config/ClusterResolver.hpp"
#include "sim/config/ClusterSection.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/FailureSection.hpp"
#include "sim/config/NetworkSection.hpp"
#include "sim/config/OutputSection.hpp"
#include "sim/config/PolicySection.hpp"
#include "sim/config/PowerSection.hpp"
#include "sim/config/WorkloadSection.hpp"

#include <type_traits>

namespace acmesim {

namespace {

// A section read whole by its reader (`read(checker, node)`, or `read(checker, node, scenario)` for
// one whose defaults come from sections before it), called when the file has the section; one
// whose absence means something (`read(checker, nullptr)`: a default policy, checked and completed)
// is read then too. Its echo and reference are the section's own (section_echo and
// section_key_docs, found by the member's type).
template <typename Section, typename Node, typename... Earlier>
ConfigKey<Scenario> section_key(std::string name, Section Scenario::*member,
                                Section (*read)(ConfigChecker&, Node, const Earlier&...), std::string help)
{
  KeyDoc doc = other_doc(std::move(name), "map", MAP_KEYS, std::move(help));
  doc.default_value = MAP_DEFAULTS;
  ConfigKey<Scenario> section{
      std::move(doc),
      [member, read](MapReader& m, const std::string& key, Scenario& scenario) {
        if constexpr (sizeof...(Earlier) > 0)
          scenario.*member = read(m.checker(), *m.get(key), scenario);
        else if constexpr (std::is_pointer_v<Node>)
          scenario.*member = read(m.checker(), m.get(key));
        else
          scenario.*member = read(m.checker(), *m.get(key));
        return true;
      },
      [member](const Scenario& scenario) { return section_echo(scenario.*member); },
      [](const std::string& path, const Scenario&) { return section_key_docs<Section>(path); }};
  if constexpr (std::is_pointer_v<Node>)
    return std::move(section).read_when_absent();
  else
    return section;
}

// The name becomes a directory under results/.
bool read_name(MapReader& m, const std::string& key, Scenario& scenario)
{
  if (!m.read(key, scenario.name))
    return false;
  if (is_safe_name(scenario.name))
    return true;
  m.checker().error(*m.get(key), m.key_of(key),
                    "expected at most 255 letters, digits, '.', '_' or '-', not starting with '.' (it names the results "
                    "directory)");
  return false;
}

// The table reads the cluster first, so `failures.model: hardware` can take its pods' model. A
// cluster an SWF header describes is read after the table: its pods are A100 nodes, as PodSpec's
// defaults, whose model read_failures takes when it is given no pods.
FailureSpec read_failures_after_cluster(ConfigChecker& checker, const ConfigNode& node, const Scenario& scenario)
{
  return read_failures(checker, node, scenario.cluster);
}

} // namespace

const KeyTable<Scenario>& scenario_keys()
{
  using S = Scenario;
  static const KeyTable<S> keys({
      value_key("name", &S::name, "the run's name, which names its results directory")
          .read_with(read_name)
          .default_is("the scenario file's name without .yaml"),
      value_key("seed", &S::seed, "the one seed; every random component draws from its own stream of it"),
      section_key("cluster", &S::cluster, read_cluster_section,
                  "the GPU cluster: pods of nodes on fat trees, and the storage service")
          .default_is("required, unless workload.trace is an SWF log, whose header describes its machine"),
      section_key("workload", &S::workload, read_workload, "the jobs: a trace, or a synthetic workload")
          .default_is("required, unless evaluation is given"),
      section_key("scheduler", &S::scheduler, read_scheduler,
                  "the scheduler, where it places jobs, and its parameters"),
      section_key("failures", &S::failures, read_failures_after_cluster,
                  "hardware failures, from a sourced model or a recorded list (docs/failures.md)")
          .default_is("none"),
      section_key("checkpoint", &S::checkpoint, read_checkpoint, "checkpoints of training jobs (docs/checkpointing.md)")
          .default_is("off"),
      section_key("recovery", &S::recovery, read_recovery,
                  "what happens to a job a failure interrupts, and its parameters"),
      section_key("evaluation", &S::evaluation, read_evaluation, "evaluation campaigns (docs/evaluation.md)")
          .default_is("off"),
      section_key("network", &S::network, read_network,
                  "training traffic on the fabric, and how it sets each job's speed (docs/network.md)"),
      map_key("power", &S::power, power_keys(), "what GPUs and servers draw, for energy (docs/energy.md)"),
      map_key("output", &S::output, output_keys(), "optional result files (docs/outputs.md)"),
  });
  return keys;
}

Json resolved_scenario_json(const Scenario& scenario) { return scenario_keys().echo(scenario); }

std::vector<KeyDoc> scenario_key_docs() { return scenario_keys().docs("", Scenario{}); }

} // namespace acmesim
