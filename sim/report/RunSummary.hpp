#pragma once
// What summary.json holds, typed: built once from a finished run, written to summary.json and read
// back from it by the terminal summary, the metrics of compare and sweep, and the plots. Each
// record declares its fields once, right after it (JsonFields.hpp), so the writer and every reader
// use the same names. Statistics of an empty sample are null.
#include "models/failure/FailureSpec.hpp"
#include "models/workload/Job.hpp"
#include "sim/report/EvaluationRecords.hpp"
#include "sim/report/JsonFields.hpp"
#include "sim/report/Statistics.hpp"
#include "sim/run/Ledger.hpp"
#include "sim/run/RunFigures.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace acmesim {

using Json = nlohmann::ordered_json;

// Queueing delay or job completion time of GPU jobs (nearest-rank quantiles).
struct TimeStats : SampleStats {};
constexpr auto json_fields(const TimeStats*)
{
  using T = TimeStats;
  return fields<T>("count mean p50 p95 p99 max", &T::count, &T::mean, &T::p50, &T::p95, &T::p99, &T::max);
}

// A statistic of the GPU jobs that ran, overall and per job type.
template <typename Stats>
struct ByJobType {
  Stats all;
  ByName<JobType, Stats> by_type; // types with GPU jobs only
};
template <typename Stats>
constexpr auto json_fields(const ByJobType<Stats>*)
{
  using T = ByJobType<Stats>;
  return fields<T>("all by_type", &T::all, &T::by_type);
}
using TimesByType = ByJobType<TimeStats>;

constexpr auto json_fields(const UnknownDrops*)
{
  using T = UnknownDrops;
  return fields<T>("jobs submit_time run_time size", &T::jobs, &T::submit_time, &T::run_time, &T::size);
}

struct JobCounts {
  std::size_t total = 0, gpu = 0, cpu_only = 0, rejected = 0, skipped_rows = 0;
  UnknownDrops dropped_unknown;                 // SWF jobs left out by workload.on_unknown: drop
  ByName<JobState, std::size_t> by_final_state; // every state
  ByName<JobType, std::size_t> by_type;         // every type
};
constexpr auto json_fields(const JobCounts*)
{
  using T = JobCounts;
  return fields<T>("total gpu cpu_only rejected skipped_rows dropped_unknown by_final_state by_type", &T::total,
                   &T::gpu, &T::cpu_only, &T::rejected, &T::skipped_rows, &T::dropped_unknown, &T::by_final_state,
                   &T::by_type);
}

// GPU-hours by ledger state, with their total; summary.json writes them flat, the total last
// under this key.
inline constexpr std::string_view STATE_HOURS_TOTAL = "total";
struct StateHours {
  ByName<GpuState, double> by_state;
  double total = 0;
};
void to_json(Json& j, const StateHours& hours);
void from_json(const Json& j, StateHours& hours);

struct FailureSummary : FailureCounts {
  std::size_t applied = 0;
  ByName<FailureCategory, std::size_t> by_category;
  ByName<Component, std::size_t> by_component;
};
constexpr auto json_fields(const FailureSummary*)
{
  using T = FailureSummary;
  return fields<T>("applied on_components_already_down lemon_failures_avoided job_interruptions escalations "
                   "spare_swaps jobs_given_up by_category by_component",
                   &T::applied, &T::on_components_already_down, &T::lemon_failures_avoided, &T::job_interruptions,
                   &T::escalations, &T::spare_swaps, &T::jobs_given_up, &T::by_category, &T::by_component);
}

// Preemptions by the scheduler and the GPU-hours of work they lost (redone after the restart).
struct PreemptionCount {
  std::size_t preemptions = 0;
  std::size_t jobs_preempted = 0;
  double lost_gpu_hours = 0;
};
constexpr auto json_fields(const PreemptionCount*)
{
  using T = PreemptionCount;
  return fields<T>("preemptions jobs_preempted lost_gpu_hours", &T::preemptions, &T::jobs_preempted,
                   &T::lost_gpu_hours);
}
// Overall, and per job type (every type).
struct PreemptionSummary : PreemptionCount {
  ByName<JobType, PreemptionCount> by_type;
};
constexpr auto json_fields(const PreemptionSummary*)
{
  using T = PreemptionSummary;
  return fields<T>("preemptions jobs_preempted lost_gpu_hours by_type", &T::preemptions, &T::jobs_preempted,
                   &T::lost_gpu_hours, &T::by_type);
}

// A pretraining job that ran: where its wall time went (seconds), the useful part of it, and its
// effective training time ratio (useful time over wall time from first start to end).
struct TrainingJob : JobFaultStats {
  std::string job_id;
  int gpus = 0;
  double wall_s = 0;
  double ettr = 0;
};
constexpr auto json_fields(const TrainingJob*)
{
  using T = TrainingJob;
  return fields<T>("job_id gpus wall_s useful_s ettr interruptions preemptions checkpoints lost_s preempted_s "
                   "checkpoint_s detection_s waiting_for_person_s restart_s gave_up",
                   &T::job_id, &T::gpus, &T::wall_s, &T::useful_s, &T::ettr, &T::interruptions, &T::preemptions,
                   &T::checkpoints, &T::lost_s, &T::preempted_s, &T::checkpoint_s, &T::detection_s,
                   &T::waiting_for_person_s, &T::restart_s, &T::gave_up);
}

struct EttrStats : SampleStats {};
constexpr auto json_fields(const EttrStats*)
{
  return fields<EttrStats>("count mean p50 min", &EttrStats::count, &EttrStats::mean, &EttrStats::p50, &EttrStats::min);
}

// Large pretraining jobs, whose ETTR planners target: 256 GPUs or more (the jobs that hold 96% of
// Kalos' GPU time, NSDI'24 §3.1; acme-facts.md §1).
inline constexpr int LARGE_JOB_GPUS = 256;
struct TrainingSummary {
  EttrStats ettr;
  EttrStats ettr_large; // of the pretraining jobs of LARGE_JOB_GPUS or more
  std::size_t interruptions = 0;
  std::vector<TrainingJob> jobs;
};
constexpr auto json_fields(const TrainingSummary*)
{
  using T = TrainingSummary;
  return fields<T>("ettr ettr_large interruptions jobs", &T::ettr, &T::ettr_large, &T::interruptions, &T::jobs);
}

// The CPU cores running jobs held (sim/run/CpuDemand.hpp), as shares of the cluster's cores and of
// the run's time. CPUs are not capacity, so the demand may exceed the cores (shares above 1).
struct CpuUtilisation {
  std::int64_t cpus = 0;          // the cluster's cores
  double mean_busy = 0;           // cores held, at most all of them, over all core-time
  double mean_demand = 0;         // cores held over all core-time
  double peak_demand = 0;         // the most cores held at once, over the cluster's
  double over_capacity_share = 0; // of the run's time, with more cores held than the cluster has
};
constexpr auto json_fields(const CpuUtilisation*)
{
  using T = CpuUtilisation;
  return fields<T>("cpus mean_busy mean_demand peak_demand over_capacity_share", &T::cpus, &T::mean_busy,
                   &T::mean_demand, &T::peak_demand, &T::over_capacity_share);
}

// Shares of all GPU time: busy, and busy or stranded (allocated); the share of the run's time with
// some GPU job queued, and of the GPU time then, the share free on nodes in service; the CPUs'.
struct Utilisation {
  double mean_gpu_busy = 0, mean_gpu_allocated = 0, queued_time_share = 0, gpu_free_while_queued = 0;
  CpuUtilisation cpu;
};
constexpr auto json_fields(const Utilisation*)
{
  using T = Utilisation;
  return fields<T>("mean_gpu_busy mean_gpu_allocated queued_time_share gpu_free_while_queued cpu", &T::mean_gpu_busy,
                   &T::mean_gpu_allocated, &T::queued_time_share, &T::gpu_free_while_queued, &T::cpu);
}

// What held GPU jobs back, where the run shows it (docs/outputs.md, "What binds"): the resource
// (BindingResource) and the figures that say so.
enum class BindingResource : std::uint8_t { Gpus, Cpus, StartOverhead, Scheduling };
constexpr auto enum_names(BindingResource)
{
  return names_in_order<BindingResource>("gpus", "cpus", "start_overhead", "scheduling");
}
struct BindingFlag {
  std::string resource; // a BindingResource's name
  std::string why;
};
constexpr auto json_fields(const BindingFlag*)
{
  return fields<BindingFlag>("resource why", &BindingFlag::resource, &BindingFlag::why);
}

// Energy from the ledger's state times and the power model (docs/energy.md): exact, since every
// GPU's state, and so its power, is constant between the ledger's changes.
struct EnergySummary {
  ByName<GpuState, double> gpu_kwh; // per ledger state (reported states)
  double node_base_kwh = 0;         // the rest of the servers: in service, and down
  double it_kwh = 0;                // GPUs and servers
  double facility_kwh = 0;          // it_kwh x pue
  double pue = 1;
  double mean_it_kw = 0;
  std::optional<double> peak_it_kw; // the highest mean over a bin of utilisation.csv
  // Over the GPUs and nodes in service, as Acme's telemetry saw them: the mean GPU power, the
  // share of GPU-time not computing (idle or moving data), the mean power of a GPU server.
  double mean_gpu_w = 0;
  double idle_gpu_time_share = 0;
  double mean_server_w = 0;
};
constexpr auto json_fields(const EnergySummary*)
{
  using T = EnergySummary;
  return fields<T>("gpu_kwh node_base_kwh it_kwh facility_kwh pue mean_it_kw peak_it_kw mean_gpu_w "
                   "idle_gpu_time_share mean_server_w",
                   &T::gpu_kwh, &T::node_base_kwh, &T::it_kwh, &T::facility_kwh, &T::pue, &T::mean_it_kw,
                   &T::peak_it_kw, &T::mean_gpu_w, &T::idle_gpu_time_share, &T::mean_server_w);
}

// Each GPU job's slowdown (wall time training over its reference time, 1 when it never trained).
struct SlowdownStats : SampleStats {};
constexpr auto json_fields(const SlowdownStats*)
{
  using T = SlowdownStats;
  return fields<T>("count mean p50 p95 max", &T::count, &T::mean, &T::p50, &T::p95, &T::max);
}

using SlowdownsByType = ByJobType<SlowdownStats>;

// One direction of a link and its load over the run (LinkLoads.hpp).
struct BusyLink {
  std::string link;
  double bandwidth_GBps = 0;
  double mean_utilisation = 0;
};
constexpr auto json_fields(const BusyLink*)
{
  using T = BusyLink;
  return fields<T>("link bandwidth_GBps mean_utilisation", &T::link, &T::bandwidth_GBps, &T::mean_utilisation);
}

// The directions of the nodes' compute cables, time-weighted: Acme's NIC figures (acme-facts.md §4),
// the idle and above-a-quarter shares as windows of window_s read them.
struct NicUtilisation {
  std::size_t directions = 0;
  double window_s = 0;
  double idle_share = 0, above_quarter_share = 0, mean = 0;
};
constexpr auto json_fields(const NicUtilisation*)
{
  using T = NicUtilisation;
  return fields<T>("directions window_s idle_share above_quarter_share mean", &T::directions, &T::window_s,
                   &T::idle_share, &T::above_quarter_share, &T::mean);
}

inline constexpr std::size_t BUSIEST_LINKS = 10;
struct NetworkSummary {
  SlowdownsByType slowdown;
  double communication_gpu_hours = 0;
  std::vector<BusyLink> busiest_links; // at most BUSIEST_LINKS, busiest first
  NicUtilisation nic_utilisation;
};
constexpr auto json_fields(const NetworkSummary*)
{
  using T = NetworkSummary;
  return fields<T>("slowdown communication_gpu_hours busiest_links nic_utilisation", &T::slowdown,
                   &T::communication_gpu_hours, &T::busiest_links, &T::nic_utilisation);
}

struct EngineSummary {
  std::uint64_t scheduler_calls = 0;
  std::uint64_t instants = 0;
  std::size_t max_queue_length = 0;
};
constexpr auto json_fields(const EngineSummary*)
{
  using T = EngineSummary;
  return fields<T>("scheduler_calls instants max_queue_length", &T::scheduler_calls, &T::instants,
                   &T::max_queue_length);
}

struct ProgramInfo {
  std::string name;
  std::string version;
};
constexpr auto json_fields(const ProgramInfo*)
{
  return fields<ProgramInfo>("name version", &ProgramInfo::name, &ProgramInfo::version);
}

struct RunSummary {
  ProgramInfo program;
  std::string scenario_name;
  std::uint64_t seed = 0;
  double makespan_s = 0;
  JobCounts jobs;
  TimesByType wait_s;
  TimesByType jct_s;
  StateHours gpu_hours;
  StateHours lost_gpu_hours;        // the LOST_GPU_STATES: work lost
  StateHours unavailable_gpu_hours; // the UNAVAILABLE_GPU_STATES: capacity no job could use
  FailureSummary failures;
  PreemptionSummary preemption;
  TrainingSummary training;
  std::optional<EvaluationSummary> evaluation; // null without evaluation campaigns
  Utilisation utilisation;
  std::vector<BindingFlag> binding;
  Omittable<EnergySummary> energy; // GPU clusters only: a CPU machine has no power model here
  Omittable<NetworkSummary> network; // with the network model on
  EngineSummary engine;
  Json scenario; // the resolved scenario (ScenarioJson.cpp)
};
constexpr auto json_fields(const RunSummary*)
{
  using T = RunSummary;
  return fields<T>("program scenario_name seed makespan_s jobs wait_s jct_s gpu_hours lost_gpu_hours "
                   "unavailable_gpu_hours failures preemption training evaluation utilisation binding energy network "
                   "engine scenario",
                   &T::program, &T::scenario_name, &T::seed, &T::makespan_s, &T::jobs, &T::wait_s, &T::jct_s,
                   &T::gpu_hours, &T::lost_gpu_hours, &T::unavailable_gpu_hours, &T::failures, &T::preemption,
                   &T::training, &T::evaluation, &T::utilisation, &T::binding, &T::energy, &T::network, &T::engine,
                   &T::scenario);
}

// Reads a summary.json document; throws InputError naming the field that is missing or of the
// wrong type ("summary.json: key 'lost_gpu_hours.down': ...").
RunSummary run_summary_from_json(const Json& json);
// Reads `dir`/summary.json; throws InputError naming the file, the field and what is wrong.
RunSummary read_run_summary(const std::filesystem::path& dir);

} // namespace acmesim
