#pragma once
// The `output:` section of a scenario: optional result files and their resolution
// (docs/outputs.md).
#include "sim/config/CheckedReader.hpp"
#include "sim/config/Scenario.hpp"

namespace acmesim {

// Reads the section; every problem is reported through `checker`.
OutputSpec read_output(ConfigChecker& checker, const ConfigNode& node);

} // namespace acmesim
