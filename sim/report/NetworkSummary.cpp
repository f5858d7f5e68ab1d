// The network section of summary.json: slowdowns from the run's records, link loads from the engine.
#include "sim/report/SummaryParts.hpp"

#include <algorithm>

namespace acmesim {

std::optional<NetworkSummary> summarise_network(const RunResult& result)
{
  if (!result.network_load) // the network model is off
    return std::nullopt;
  const Run& run = *result.run;
  NetworkSummary network;
  network.slowdown = summarise_by_type<SlowdownStats>(
      run, [&run](JobId id, const Job&, const JobRecord&) { return run.statistics().slowdown(id); });
  network.communication_gpu_hours = run.ledger().gpu_seconds(GpuState::Communication) / 3600.0;

  const NetworkLoad& load = *result.network_load;
  const std::size_t busiest = std::min(BUSIEST_LINKS, load.links.size());
  for (std::size_t i = 0; i < busiest; ++i) {
    const LinkUse& link = load.links[i];
    network.busiest_links.push_back(BusyLink{link.name, link.bandwidth_Bps / 1e9, link.mean_utilisation});
  }
  network.nic_utilisation = NicUtilisation{load.nic_directions, load.nic_window_s, load.nic_idle_share,
                                           load.nic_above_quarter_share, load.nic_mean_utilisation};
  return network;
}

} // namespace acmesim
