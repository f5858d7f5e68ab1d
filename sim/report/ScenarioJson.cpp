// The resolved scenario in summary.json ("scenario"): every section as the run used it, defaults
// filled in, in the keys of a scenario file. The configuration derives it from the key
// declarations (sim/config/ScenarioKeys.hpp); the report adds which file it came from, by name
// only, so that results do not depend on the directory the command ran from.
#include "sim/report/Reports.hpp"

#include "sim/config/ScenarioKeys.hpp"

#include <filesystem>

namespace acmesim {

Json scenario_to_json(const Scenario& scenario)
{
  const Json resolved = resolved_scenario_json(scenario);
  Json json{{"name", resolved.at("name")}, {"source", std::filesystem::path(scenario.source).filename().string()}};
  json.update(resolved);
  return json;
}

} // namespace acmesim
