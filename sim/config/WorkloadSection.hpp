#pragma once
// The `workload:` section of a scenario: a trace (path resolved against the scenario's
// directory and checked to be readable) or a synthetic workload, by hand or from the
// calibrated generator.
#include "models/workload/WorkloadSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

WorkloadSpec read_workload(ConfigChecker& checker, const ConfigNode& node);
template <> Json section_echo(const WorkloadSpec& spec);
template <> std::vector<KeyDoc> section_key_docs<WorkloadSpec>(const std::string& path);

} // namespace acmesim
