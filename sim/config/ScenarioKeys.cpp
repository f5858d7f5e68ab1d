#include "sim/config/ScenarioKeys.hpp"

#include "sim/config/CheckpointSection.hpp"
#include "sim/config/ClusterSection.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/FailureSection.hpp"
#include "sim/config/OutputSection.hpp"
#include "sim/config/PolicySection.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/config/WorkloadSection.hpp"

namespace acmesim {

namespace {

// A section the loader reads; its echo and reference are the section's own.
template <typename Section>
ConfigKey<Scenario> section_key(std::string name, Section Scenario::*member, Json (*echo)(const Section&),
                                std::vector<KeyDoc> (*docs)(const std::string&), std::string help)
{
  KeyDoc doc = other_doc(std::move(name), "map", MAP_KEYS, std::move(help));
  doc.default_value = MAP_DEFAULTS;
  return {std::move(doc), {}, [member, echo](const Scenario& scenario) { return echo(scenario.*member); },
          [docs](const std::string& path, const Scenario&) { return docs(path); }};
}

// The name becomes a directory under results/.
bool read_name(MapReader& m, const std::string& key, Scenario& scenario)
{
  if (!m.read(key, scenario.name))
    return false;
  if (is_safe_name(scenario.name))
    return true;
  m.checker().error(*m.get(key), m.key_of(key),
                    "expected letters, digits, '.', '_' or '-', not starting with '.' (it names the results directory)");
  return false;
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
      section_key("cluster", &S::cluster, cluster_to_json, cluster_key_docs,
                  "the GPU cluster: pods of nodes on fat trees, and the storage service")
          .required(),
      section_key("workload", &S::workload, workload_to_json, workload_key_docs,
                  "the jobs: a trace, or a synthetic workload")
          .default_is("required, unless evaluation is given"),
      section_key("scheduler", &S::scheduler, scheduler_to_json, scheduler_key_docs,
                  "the scheduler, where it places jobs, and its parameters"),
      section_key("failures", &S::failures, failures_to_json, failure_key_docs,
                  "hardware failures, from a sourced model or a recorded list (docs/failures.md)")
          .default_is("none"),
      section_key("checkpoint", &S::checkpoint, checkpoint_to_json, checkpoint_key_docs,
                  "checkpoints of training jobs (docs/checkpointing.md)")
          .default_is("off"),
      section_key("recovery", &S::recovery, recovery_to_json, recovery_key_docs,
                  "what happens to a job a failure interrupts, and its parameters"),
      section_key("evaluation", &S::evaluation, evaluation_to_json, evaluation_key_docs,
                  "evaluation campaigns (docs/evaluation.md)")
          .default_is("off"),
      map_key("output", &S::output, output_keys(), "optional result files (docs/outputs.md)"),
  });
  return keys;
}

Json resolved_scenario_json(const Scenario& scenario) { return scenario_keys().echo(scenario); }

std::vector<KeyDoc> scenario_key_docs() { return scenario_keys().docs("", Scenario{}); }

} // namespace acmesim
