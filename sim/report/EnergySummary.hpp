#pragma once
// summary.json's energy, from the ledger's GPU-seconds per state and the power model
// (models/power/Energy.hpp, docs/energy.md).
#include "models/power/Energy.hpp"
#include "sim/report/RunSummary.hpp"
#include "sim/run/Ledger.hpp"

#include <array>

namespace acmesim {

// GPU-seconds per state, each at its state's draw, in the order of the states.
std::array<DrawnSeconds, GPU_STATE_COUNT> drawn_seconds(const StateSeconds& seconds);

EnergySummary summarise_energy(const Ledger& ledger, const PowerSpec& power, const Servers& servers, bool network_on);

} // namespace acmesim
