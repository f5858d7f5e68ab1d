#pragma once
// The `scheduler:` and `recovery:` sections of a scenario: a policy by name and the parameters
// that policy declares in its registration (sim/policies/PolicyRegistry.hpp). The keys besides
// the names are the registries': the reference lists them from there.
#include "sim/config/KeyTable.hpp"
#include "sim/policies/PolicySpec.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `node` == nullptr: the section is absent (the defaults, with every parameter's default).
SchedulerSpec read_scheduler(ConfigChecker& checker, const ConfigNode* node);
RecoverySpec read_recovery(ConfigChecker& checker, const ConfigNode* node);

Json scheduler_to_json(const SchedulerSpec& spec);
Json recovery_to_json(const RecoverySpec& spec);

std::vector<KeyDoc> scheduler_key_docs(const std::string& path);
std::vector<KeyDoc> recovery_key_docs(const std::string& path);

} // namespace acmesim
