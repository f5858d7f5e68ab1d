#pragma once
// YAML -> Scenario, with every problem reported at once (InputError) before anything runs.
//
// Overrides are "key.path=value" strings (from --set and --seed); they are applied to the
// YAML tree before validation, and errors in them name the override instead of a line.
// Sequence elements are addressed by index: cluster.pods.1.nodes=10.
#include "sim/config/Scenario.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides = {});
Scenario load_default_scenario(const std::vector<std::string>& overrides = {});
// The file at `path`, or the embedded default when `path` is empty (an experiment file's base).
Scenario load_scenario_or_default(const std::string& path, const std::vector<std::string>& overrides = {});
// `base_dir` resolves relative trace paths; `source_name` is used in messages.
Scenario load_scenario_text(const std::string& yaml_text, const std::string& source_name, const std::string& base_dir,
                            const std::vector<std::string>& overrides = {});

} // namespace acmesim
