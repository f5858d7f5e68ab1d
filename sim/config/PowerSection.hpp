#pragma once
// The `power:` section of a scenario: the power model of GPUs and servers by ledger state
// (models/power/PowerSpec.hpp, docs/energy.md). The section starts from PowerSpec's defaults.
#include "models/power/PowerSpec.hpp"
#include "sim/keys/KeyTable.hpp"

namespace acmesim {

const KeyTable<PowerSpec>& power_keys();

} // namespace acmesim
