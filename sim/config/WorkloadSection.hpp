#pragma once
// The `workload:` section of a scenario: a trace (path resolved against the scenario's
// directory and checked to be readable) or a synthetic generator spec, checked in full.
#include "models/workload/WorkloadSpec.hpp"
#include "sim/config/CheckedReader.hpp"
#include "sim/config/ConfigTree.hpp"

#include <string>

namespace acmesim {

WorkloadSpec read_workload(ConfigChecker& checker, const ConfigNode& node, const std::string& base_dir);

} // namespace acmesim
