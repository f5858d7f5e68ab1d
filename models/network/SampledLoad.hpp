#pragma once
// What a link's load looks like to a monitor that averages it over fixed windows, as Acme's DCGM
// and Prometheus sampled its NICs every 15 s. A training ring does not load a NIC at its mean: it
// sends a burst once a step and is silent the rest, so a window that falls between two bursts
// reads nothing and one that holds a burst reads more than the mean. Engine-free: the engine says
// what runs on the link (sim/engine/LinkLoads); docs/network.md, "What summary.json reports".
#include <span>

namespace acmesim {

// A periodic burst on the link: `on_Bps` for `on_s` of every `period_s`.
struct BurstTrain {
  double on_Bps = 0;
  double on_s = 0;
  double period_s = 0;

  double mean_Bps() const { return period_s > 0 ? on_Bps * on_s / period_s : 0; }
};

// Of the windows of `window_s` that fall anywhere in time, the shares that read no traffic at all
// and that read more than `threshold_Bps` on average, with steady traffic of `steady_Bps` and the
// trains at independent phases, each uniform over its period.
struct WindowShares {
  double idle = 0;
  double above = 0;
};
// Exact for one train. With several, the two that carry the most take independent phases (the
// first's on a grid of 64 a period, the second's exactly) and the others are taken at their means.
WindowShares window_shares(double steady_Bps, std::span<const BurstTrain> trains, double window_s,
                           double threshold_Bps);

} // namespace acmesim
