// CPU utilisation and what binds (summary.json `utilisation.cpu` and `binding`; docs/outputs.md).
#include "sim/report/SummaryParts.hpp"

#include <fmt/format.h>

namespace acmesim {

namespace {

// The thresholds of the flags (docs/outputs.md, "What binds").
// CPUs: more cores held than the cluster has for at least this share of the run.
constexpr double CPU_OVER_CAPACITY_SHARE = 0.01;
// GPUs: GPU jobs queued (start overhead aside) at least this long on average, with less than
// SCHEDULING_FREE_WHILE_QUEUED of GPU time free while they did.
constexpr double GPUS_QUEUED_S = 60;
// Start overhead: at least this share of GPU jobs' mean wait.
constexpr double START_OVERHEAD_SHARE_OF_WAIT = 0.5;
// Scheduling: at least this share of the GPU time while GPU jobs were queued free, with some GPU job
// queued for at least this share of the run.
constexpr double SCHEDULING_FREE_WHILE_QUEUED = 0.1;
constexpr double SCHEDULING_QUEUED_TIME = 0.01;

std::string percent(double share) { return fmt::format("{:.1f}%", 100 * share); }

BindingFlag flag(BindingResource resource, std::string why)
{
  return {std::string(to_string(resource)), std::move(why)};
}

// The mean start overhead of the GPU jobs wait_s describes (those that ran).
double mean_start_overhead(const Run& run)
{
  const JobTable& jobs = run.jobs();
  double sum = 0;
  std::size_t count = 0;
  for (JobId id = 0; id < jobs.count(); ++id)
    if (!jobs.job(id).cpu_only() && jobs.record(id).outcome == JobOutcome::Ended) {
      sum += run.start_overhead_s(id);
      ++count;
    }
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

} // namespace

CpuUtilisation summarise_cpus(const Run& run, double makespan_s)
{
  const CpuFigures f = run.cpu_figures(makespan_s);
  CpuUtilisation cpu;
  cpu.cpus = f.capacity;
  const double core_s = static_cast<double>(f.capacity) * makespan_s;
  if (core_s <= 0)
    return cpu;
  cpu.mean_busy = f.busy_core_s / core_s;
  cpu.mean_demand = f.demand_core_s / core_s;
  cpu.peak_demand = static_cast<double>(f.peak_demand) / static_cast<double>(f.capacity);
  cpu.over_capacity_share = f.over_capacity_s / makespan_s;
  return cpu;
}

std::vector<BindingFlag> what_binds(const RunSummary& summary, const Run& run, ProcessorKind processors)
{
  std::vector<BindingFlag> flags;
  const std::string_view d = processor_word(processors); // "GPU", or "CPU" on a CPU machine
  const CpuUtilisation& cpu = summary.utilisation.cpu;
  const double wait = summary.wait_s.all.mean.value_or(0);
  if (processors == ProcessorKind::Gpu && cpu.over_capacity_share >= CPU_OVER_CAPACITY_SHARE)
    flags.push_back(flag(BindingResource::Cpus,
                         fmt::format("jobs held more CPU cores than the cluster's {} for {} of the run (at most {} of "
                                     "them): CPU capacity is not modelled, so CPU-only jobs started at once; on the "
                                     "cluster they, or GPU jobs, would have waited for cores",
                                     cpu.cpus, percent(cpu.over_capacity_share), percent(cpu.peak_demand))));
  const double overhead = mean_start_overhead(run);
  const double free_while_queued = summary.utilisation.gpu_free_while_queued;
  if (wait - overhead >= GPUS_QUEUED_S && free_while_queued < SCHEDULING_FREE_WHILE_QUEUED)
    flags.push_back(flag(BindingResource::Gpus,
                         fmt::format("{} jobs queued {:.0f} s on average, and while they did only {} of the {}s "
                                     "were free: the {} count holds them back",
                                     d, wait - overhead, percent(free_while_queued), d, d)));
  if (wait > 0 && overhead >= START_OVERHEAD_SHARE_OF_WAIT * wait)
    flags.push_back(flag(BindingResource::StartOverhead,
                         fmt::format("the platform's start overhead was {:.0f} s of the {:.0f} s {} jobs waited on "
                                     "average ({}): it, not capacity, sets their wait",
                                     overhead, wait, d, percent(overhead / wait))));
  const double queued = summary.utilisation.queued_time_share;
  if (free_while_queued >= SCHEDULING_FREE_WHILE_QUEUED && queued >= SCHEDULING_QUEUED_TIME)
    flags.push_back(flag(BindingResource::Scheduling,
                         fmt::format("{} jobs were queued for {} of the run, and meanwhile {} of the {}s were free "
                                     "on average: the scheduler's order, reservations or quotas, {}s scattered over "
                                     "nodes, or pod boundaries held them back, not the {} count",
                                     d, percent(queued), percent(free_while_queued), d, d, d)));
  return flags;
}

} // namespace acmesim
