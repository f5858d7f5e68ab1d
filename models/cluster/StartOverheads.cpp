#include "models/cluster/StartOverheads.hpp"

#include "models/workload/EmpiricalDistribution.hpp"

#include <algorithm>
#include <optional>

namespace acmesim {

namespace {

bool same_table(const EmpiricalSpec& a, const EmpiricalSpec& b) { return a.values == b.values && a.cdf == b.cdf; }

} // namespace

std::vector<double> draw_start_overheads(const ClusterSpec& cluster, const Workload& workload, std::uint64_t seed)
{
  const auto& pods = cluster.pods;
  if (std::all_of(pods.begin(), pods.end(), [](const PodSpec& p) { return p.start_overhead_s.values.empty(); }))
    return {};
  std::vector<std::optional<EmpiricalDistribution>> by_pod;
  for (const PodSpec& pod : pods)
    if (pod.start_overhead_s.values.empty())
      by_pod.emplace_back();
    else
      by_pod.emplace_back(EmpiricalDistribution(pod.start_overhead_s, EmpiricalDistribution::Kind::LogLinear));
  const bool shared = std::all_of(pods.begin(), pods.end(), [&](const PodSpec& p) {
    return same_table(p.start_overhead_s, pods.front().start_overhead_s);
  });
  RandomEngine rng = make_stream(seed, "platform.start_overhead");
  std::vector<double> overheads(workload.jobs.size(), 0.0);
  for (const Job& job : workload.jobs) {
    if (job.cpu_only())
      continue;
    const std::optional<EmpiricalDistribution>* table = nullptr;
    if (job.pod != ANY_POD)
      table = &by_pod.at(static_cast<std::size_t>(job.pod));
    else if (shared)
      table = &by_pod.front();
    if (table && *table)
      overheads[job.id] = (*table)->sample(rng);
  }
  return overheads;
}

} // namespace acmesim
