#pragma once
// The `output:` section of a scenario: optional result files and their resolution
// (docs/outputs.md). The section starts from OutputSpec's defaults.
#include "sim/config/Scenario.hpp"
#include "sim/keys/KeyTable.hpp"

namespace acmesim {

const KeyTable<OutputSpec>& output_keys();

} // namespace acmesim
