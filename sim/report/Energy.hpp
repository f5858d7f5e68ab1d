#pragma once
// Power and energy from the ledger (docs/energy.md). Every GPU is in one ledger state at every
// instant and draws that state's power (Ledger.hpp: power_draw), and every node in service draws
// its base power, so the energy of any window is a sum over the ledger's GPU-seconds per state:
// exact, with no sampling, and free once the ledger exists. (SimGrid's energy plugin models hosts
// by CPU load, which is not what a GPU's ledger state is.)
#include "models/cluster/Topology.hpp"
#include "models/power/PowerSpec.hpp"
#include "sim/report/RunSummary.hpp"
#include "sim/run/Ledger.hpp"

namespace acmesim {

// The servers the GPUs sit in: their count and GPUs per node (the mean over pods).
struct Servers {
  double nodes = 0;
  double gpus_per_node = 8;
};

Servers servers_of(const Topology& topology);

// Watts drawn by the GPUs of one state.
double gpu_power_w(const PowerSpec& power, GpuState state);
// Mean IT power (GPUs and servers, W) over a window of `window_s` seconds whose GPU-seconds per
// state are `seconds` (the whole run, or a bin of the ledger's series).
double it_power_w(const StateSeconds& seconds, double window_s, const PowerSpec& power, const Servers& servers);

EnergySummary summarise_energy(const Ledger& ledger, const PowerSpec& power, const Servers& servers, bool network_on);

} // namespace acmesim
