#include "sim/run/RunRecords.hpp"

namespace acmesim {

RunRecords::RunRecords(const Topology& topology, const std::vector<Job>& jobs, double utilisation_bin_s,
                       bool timeline, std::size_t utilisation_max_bins)
    : ledger_(topology.total_gpus(), utilisation_bin_s, utilisation_max_bins)
    , cpus_(jobs, topology.total_cpus())
    , statistics_(jobs.size())
{
  events_.subscribe(ledger_);
  events_.subscribe(cpus_);
  events_.subscribe(statistics_);
  if (timeline) {
    timeline_ = std::make_unique<RunTimeline>(topology);
    events_.subscribe(*timeline_);
  }
}

} // namespace acmesim
