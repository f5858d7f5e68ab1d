#pragma once
// Report pieces about evaluation campaigns (summary.json `evaluation`).
#include "sim/config/Scenario.hpp"
#include "sim/run/Run.hpp"

#include <nlohmann/json.hpp>

namespace acmesim {

using Json = nlohmann::ordered_json;

// Per campaign its makespan and trial GPU time (with every trial's phase times for scheduled
// campaigns), and the feedback latency of campaigns triggered by checkpoints; null without
// campaigns.
Json evaluation_summary(const Scenario& scenario, const Run& run);

} // namespace acmesim
