// The resolved scenario in summary.json ("scenario"): every section as the run used it, defaults
// filled in, file paths as written (so results do not depend on the working directory).
#include "sim/report/Reports.hpp"

#include "sim/config/CheckpointSection.hpp"
#include "sim/config/ClusterSection.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/OutputSection.hpp"
#include "sim/config/PolicySection.hpp"
#include "sim/config/WorkloadSection.hpp"

#include <filesystem>

namespace acmesim {

namespace {

Json to_json(const DurationDistribution& d)
{
  Json json{{"dist", to_string(d.kind)}};
  switch (d.kind) {
    case DurationDistribution::Kind::Exponential:
      json["mean_h"] = d.mean_s / 3600;
      break;
    case DurationDistribution::Kind::Weibull:
      json["shape"] = d.shape;
      json["scale_h"] = d.scale_s / 3600;
      break;
    case DurationDistribution::Kind::LogNormal:
      json["median_h"] = d.median_s / 3600;
      json["sigma"] = d.sigma;
      break;
    case DurationDistribution::Kind::Fixed:
      json["value_h"] = d.value_s / 3600;
      break;
  }
  return json;
}

Json failures_to_json(const FailureSpec& f)
{
  if (f.source == FailureSpec::Source::None)
    return Json{{"model", "none"}};
  if (f.source == FailureSpec::Source::Recorded)
    return Json{{"recorded", std::filesystem::path(f.recorded_path).filename().string()}};
  Json components = Json::object();
  for (Component c : enum_values<Component>()) {
    const auto& spec = f.components[static_cast<std::size_t>(c)];
    Json categories = Json::object();
    for (const auto& [category, weight] : spec.categories)
      categories[std::string(to_string(category))] = weight;
    components[std::string(to_string(c))] = Json{{"enabled", spec.enabled},
                                                 {"tbf", to_json(spec.time_between_failures)},
                                                 {"categories", categories},
                                                 {"reboot_share", spec.reboot_share},
                                                 {"reboot", to_json(spec.reboot_time)},
                                                 {"replacement", to_json(spec.replacement_time)}};
  }
  Json detection = Json::object();
  for (FailureCategory c : enum_values<FailureCategory>())
    detection[std::string(to_string(c))] = f.detection_s[static_cast<std::size_t>(c)];
  Json multipliers = Json::object();
  for (const auto& [node, m] : f.node_rate_multipliers)
    multipliers[node] = m;
  return Json{{"model", "acme"},
              {"components", components},
              {"lemon_nodes", f.lemon_nodes},
              {"lemon_multiplier", f.lemon_multiplier},
              {"node_rate_multipliers", multipliers},
              {"neighbour_probability", f.neighbour_probability},
              {"detection_s", detection}};
}

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
