#pragma once
// Report pieces about evaluation campaigns (summary.json `evaluation`).
#include "sim/config/Scenario.hpp"
#include "sim/engine/RunState.hpp"

#include <nlohmann/json.hpp>

namespace acmesim {

using Json = nlohmann::ordered_json;

Json eval_config_json(const Scenario& scenario);
// One entry per campaign, or null without campaigns.
Json evaluation_summary(const Scenario& scenario, const Workload& workload, const RunState& state);

} // namespace acmesim
