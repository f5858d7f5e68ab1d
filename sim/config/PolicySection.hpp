#pragma once
// The `scheduler:` and `recovery:` sections of a scenario: a policy by name and the parameters
// that policy declares in its registration (sim/policies/PolicyRegistry.hpp). The keys besides
// the names are the registries': the reference lists them from there.
#include "sim/keys/KeyTable.hpp"
#include "sim/policy_api/PolicySpec.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `node` == nullptr: the section is absent (the defaults, with every parameter's default). A plugin's
// path is relative to the checker's directory (the scenario file's); the plugin is loaded to check it.
SchedulerSpec read_scheduler(ConfigChecker& checker, const ConfigNode* node);
RecoverySpec read_recovery(ConfigChecker& checker, const ConfigNode* node);

template <> Json section_echo(const SchedulerSpec& spec);
template <> Json section_echo(const RecoverySpec& spec);

template <> std::vector<KeyDoc> section_key_docs<SchedulerSpec>(const std::string& path);
template <> std::vector<KeyDoc> section_key_docs<RecoverySpec>(const std::string& path);

} // namespace acmesim
