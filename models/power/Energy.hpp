#pragma once
// Power and energy (docs/energy.md): what a GPU draws at each level of activity, what its server
// draws, and the energy of a window from the GPU-seconds spent at each level. The ledger gives
// each GPU state one draw (power_draw, sim/run/Ledger.hpp), so the energy of any window is a sum
// over the ledger's GPU-seconds: exact, with no sampling. (SimGrid's energy plugin models hosts by
// CPU load, which is not what a GPU's ledger state is.)
#include "models/cluster/Topology.hpp"
#include "models/power/PowerSpec.hpp"

#include <span>

namespace acmesim {

inline constexpr double JOULES_PER_KWH = 3.6e6;

// The servers the GPUs sit in: their count and GPUs per node (the mean over pods).
struct Servers {
  double nodes = 0;
  double gpus_per_node = 8;
};

Servers servers_of(const Topology& topology);

// Watts drawn by one GPU at `draw`.
double gpu_power_w(const PowerSpec& power, PowerDraw draw);

// GPU-seconds spent at one draw.
struct DrawnSeconds {
  PowerDraw draw = PowerDraw::Idle;
  double gpu_s = 0;
};

// Node-seconds out of service in a window: the GPU-seconds drawing nothing, a node's GPUs at a time.
double down_node_seconds(std::span<const DrawnSeconds> gpu_time, const Servers& servers);
// Joules (GPUs and servers) over a window of `window_s` seconds in which the GPUs spent
// `gpu_time`, summed in its order: every GPU at its draw, every node in service at its base
// power, every node out of service at its down power.
double it_joules(std::span<const DrawnSeconds> gpu_time, double window_s, const PowerSpec& power,
                 const Servers& servers);
// Mean IT power (W) over that window; 0 for an empty one.
double it_power_w(std::span<const DrawnSeconds> gpu_time, double window_s, const PowerSpec& power,
                  const Servers& servers);

} // namespace acmesim
