// The resolved scenario in summary.json ("scenario"): every section as the run used it, defaults
// filled in, file paths as written (so results do not depend on the working directory).
#include "sim/report/Reports.hpp"

#include "sim/config/CheckpointSection.hpp"
#include "sim/config/ClusterSection.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/FailureSection.hpp"
#include "sim/config/OutputSection.hpp"
#include "sim/config/PolicySection.hpp"
#include "sim/config/WorkloadSection.hpp"

#include <filesystem>

namespace acmesim {

namespace {

Json fault_config_json(const Scenario& scenario)
{
  return Json{{"failures", failures_to_json(scenario.failures)},
              {"checkpoint", checkpoint_to_json(scenario.checkpoint)},
              {"recovery", recovery_to_json(scenario.recovery)}};
}

} // namespace

Json scenario_to_json(const Scenario& scenario)
{
  Json json{{"name", scenario.name},
              {"source", std::filesystem::path(scenario.source).filename().string()},
              {"seed", scenario.seed},
              {"cluster", cluster_to_json(scenario.cluster)},
              {"workload", workload_to_json(scenario.workload)},
              {"scheduler", scheduler_to_json(scenario.scheduler)}};
  const Json faults = fault_config_json(scenario);
  for (const auto& [key, value] : faults.items())
    json[key] = value;
  json["evaluation"] = evaluation_to_json(scenario.evaluation);
  json["output"] = output_keys().echo(scenario.output);
  return json;
}

} // namespace acmesim
