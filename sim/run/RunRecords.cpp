#include "sim/run/RunRecords.hpp"

namespace acmesim {

namespace {

std::int64_t total_cpus(const Topology& topology)
{
  std::int64_t cpus = 0;
  for (const auto& pod : topology.spec().pods)
    cpus += static_cast<std::int64_t>(pod.nodes) * pod.cpus_per_node;
  return cpus;
}

} // namespace

RunRecords::RunRecords(const Topology& topology, const std::vector<Job>& jobs, double utilisation_bin_s,
                       bool timeline)
    : ledger_(topology.total_gpus(), utilisation_bin_s)
    , cpus_(jobs, total_cpus(topology))
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
