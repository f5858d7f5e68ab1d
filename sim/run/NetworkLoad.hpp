#pragma once
// How loaded the links of the platform were over a run (the engine measures it: LinkLoads), as
// the run's result hands it to the summary.
#include <cstddef>
#include <string>
#include <vector>

namespace acmesim {

// One direction of a link ("<cable>_UP", "<cable>_DOWN") or a shared link, as loaded over the run.
struct LinkUse {
  std::string name;
  double bandwidth_Bps = 0;
  double mean_utilisation = 0; // time-weighted over the run
};

struct NetworkLoad {
  double span_s = 0;
  std::vector<LinkUse> links; // every link that carried traffic, busiest first (ties by name)
  // Directions of the nodes' compute cables (a node's compute NICs taken together), time-weighted
  // over the run: the share of windows of nic_window_s with no traffic and above a quarter of the
  // bandwidth, and the mean.
  std::size_t nic_directions = 0;
  double nic_window_s = 0;
  double nic_idle_share = 0;
  double nic_above_quarter_share = 0;
  double nic_mean_utilisation = 0;
};

} // namespace acmesim
