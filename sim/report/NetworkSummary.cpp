// The network section of summary.json: slowdowns from the run's records, link loads from the engine.
#include "sim/report/SummaryParts.hpp"

#include <algorithm>
#include <map>

namespace acmesim {

std::optional<NetworkSummary> summarise_network(const Scenario& scenario, const RunResult& result)
{
  if (!scenario.network.on() || !result.network_load)
    return std::nullopt;
  const Run& run = *result.run;
  const JobTable& jobs = run.jobs();
  std::vector<double> all;
  std::map<JobType, std::vector<double>> by_type;
  for (JobId id = 0; id < jobs.count(); ++id) {
    const Job& job = jobs.job(id);
    if (job.cpu_only() || jobs.record(id).outcome != JobOutcome::Ended)
      continue;
    const double slowdown = run.statistics().slowdown(id);
    all.push_back(slowdown);
    by_type[job.type].push_back(slowdown);
  }
  NetworkSummary network;
  network.slowdown.all = SlowdownStats{summarise(std::move(all))};
  for (auto& [type, values] : by_type)
    network.slowdown.by_type[type] = SlowdownStats{summarise(std::move(values))};
  network.communication_gpu_hours = run.ledger().gpu_seconds(GpuState::Communication) / 3600.0;

  const NetworkLoad& load = *result.network_load;
  const std::size_t busiest = std::min(BUSIEST_LINKS, load.links.size());
  for (std::size_t i = 0; i < busiest; ++i) {
    const LinkUse& link = load.links[i];
    network.busiest_links.push_back(BusyLink{link.name, link.bandwidth_Bps / 1e9, link.mean_utilisation});
  }
  network.nic_utilisation = NicUtilisation{load.nic_directions, load.nic_idle_share, load.nic_above_quarter_share,
                                           load.nic_mean_utilisation};
  return network;
}

} // namespace acmesim
