#include "sim/report/TerminalSummary.hpp"

#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace acmesim {

namespace {

// `device` is what the cluster's processors are called (processor_word): a CPU machine (an SWF
// log's) says CPU where a GPU cluster says GPU.
std::string describe(const TimeStats& s, std::string_view device)
{
  if (s.count == 0)
    return fmt::format("no {} job ran", device);
  return fmt::format("mean {:.1f} s, p50 {:.1f}, p95 {:.1f}, p99 {:.1f}", *s.mean, *s.p50, *s.p95, *s.p99);
}

// Waiting and completion per job type: the view the Acme paper takes (Fig. 6).
void print_by_type(std::ostream& out, const RunSummary& summary, std::string_view device)
{
  if (summary.wait_s.by_type.empty())
    return;
  out << fmt::format("{:<12} {:>8} {:>12} {:>12} {:>12} {:>12}\n", fmt::format("{} jobs", device), "count",
                     "wait mean", "wait p95", "JCT mean", "JCT p95");
  for (const auto& [type, wait] : summary.wait_s.by_type) {
    const TimeStats& jct = summary.jct_s.by_type.at(type);
    out << fmt::format("  {:<10} {:>8} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f}\n", to_string(type), wait.count,
                       *wait.mean, *wait.p95, *jct.mean, *jct.p95);
  }
}

// Lost GPU-hours by cause and effective training time, when the run had failures or checkpoints.
void print_faults(std::ostream& out, const RunSummary& summary, std::string_view device)
{
  const StateHours& lost = summary.lost_gpu_hours;
  const StateHours& unavailable = summary.unavailable_gpu_hours;
  const FailureSummary& failures = summary.failures;
  if (lost.total <= 0 && failures.applied == 0 && unavailable.by_state.at(GpuState::Down) <= 0)
    return;
  out << fmt::format("failures     {} applied, {} job interruptions, {} escalations, {} spare swaps, {} jobs "
                     "given up\n",
                     failures.applied, failures.job_interruptions, failures.escalations, failures.spare_swaps,
                     failures.jobs_given_up);
  std::vector<std::string> causes; // the states the run reported
  for (GpuState s : LOST_GPU_STATES)
    if (const auto hours = lost.by_state.find(s); hours != lost.by_state.end())
      causes.push_back(fmt::format("{} {:.0f}", state_label(s), hours->second));
  out << fmt::format("lost {}-h   {:.0f} of work: {}\n", device, lost.total, join_names(causes));
  std::vector<std::string> unused;
  for (GpuState s : UNAVAILABLE_GPU_STATES)
    unused.push_back(fmt::format("{} {:.0f}", state_label(s), unavailable.by_state.at(s)));
  out << fmt::format("unavailable  {:.0f} {}-h of capacity: {}\n", unavailable.total, device, join_names(unused));
  const EttrStats& ettr = summary.training.ettr;
  if (ettr.count > 0)
    out << fmt::format("pretraining  {} jobs, effective training time ratio mean {:.3f}, lowest {:.3f}, {} "
                       "interruptions\n",
                       ettr.count, *ettr.mean, *ettr.min, summary.training.interruptions);
}

// Per evaluation campaign: makespan and where its trials' GPU time went.
void print_evaluation(std::ostream& out, const RunSummary& summary)
{
  if (!summary.evaluation)
    return;
  const LatencyStats& feedback = summary.evaluation->feedback_latency_s;
  if (feedback.count > 0) {
    out << fmt::format("evaluation   {} campaigns triggered by checkpoints; feedback latency (checkpoint "
                       "written to all its trials done) mean {:.0f} s, p95 {:.0f} s\n",
                       feedback.count, *feedback.mean, *feedback.p95);
  }
  for (const CampaignSummary& c : summary.evaluation->campaigns) {
    if (!c.makespan_s || c.evaluates)
      continue;
    const TrialGpuHours& h = c.trial_gpu_hours;
    const auto pct = [&h](double v) { return h.total_held > 0 ? 100 * v / h.total_held : 0.0; };
    out << fmt::format("evaluation   campaign {}: {} trials, makespan {:.0f} s; trial GPU time {:.2f} GPU-h: "
                       "{:.1f}% inference, {:.1f}% loading, {:.1f}% waiting for CPU\n",
                       c.campaign, c.trials, *c.makespan_s, h.total_held, pct(h.inference), pct(h.model_load),
                       pct(h.cpu_wait));
  }
}

} // namespace

void print_summary(std::ostream& out, const RunSummary& summary, const Scenario& scenario, const std::string& out_dir)
{
  const JobCounts& jobs = summary.jobs;
  const StateHours& hours = summary.gpu_hours;
  const CpuUtilisation& cpu = summary.utilisation.cpu;
  // A CPU machine prints no host-CPU line and no energy (ClusterSpec::processors).
  const bool cpu_machine = scenario.cluster.processors == ProcessorKind::Cpu;
  const std::string_view device = processor_word(scenario.cluster.processors);
  out << fmt::format("scenario     {} (seed {})\n", summary.scenario_name, summary.seed)
      << fmt::format("cluster      {}: {} nodes, {} {}s{}\n", scenario.cluster.name, scenario.cluster.total_nodes(),
                     scenario.cluster.total_gpus(), device, cpu_machine ? " (a CPU machine)" : "")
      << fmt::format("scheduler    {}, placement {}\n", scenario.scheduler.name, scenario.scheduler.placement)
      << fmt::format("jobs         {} ({} {}, {} {}, {} rejected as larger than any pod)\n", jobs.total, jobs.gpu,
                     device, jobs.cpu_only, cpu_machine ? "of no processor" : "CPU-only", jobs.rejected)
      << fmt::format("makespan     {:.0f} s ({:.2f} days)\n", summary.makespan_s, summary.makespan_s / 86400)
      << fmt::format("wait ({})   ", device) << describe(summary.wait_s.all, device) << '\n'
      << fmt::format("JCT ({})    ", device) << describe(summary.jct_s.all, device) << '\n'
      << fmt::format("utilisation  {:.1f}% busy, {:.1f}% allocated; {} jobs queued {:.1f}% of the time, with "
                     "{:.1f}% of {}s free meanwhile\n",
                     100 * summary.utilisation.mean_gpu_busy, 100 * summary.utilisation.mean_gpu_allocated,
                     device, 100 * summary.utilisation.queued_time_share,
                     100 * summary.utilisation.gpu_free_while_queued, device);
  if (!cpu_machine) // a CPU machine's processors are its CPUs: no host CPUs beside them
    out << fmt::format("CPUs         {:.1f}% busy of {} cores; jobs held {:.1f}% of them on average, at most "
                       "{:.1f}%{}\n",
                       100 * cpu.mean_busy, cpu.cpus, 100 * cpu.mean_demand, 100 * cpu.peak_demand,
                       cpu.over_capacity_share > 0
                           ? fmt::format(", more than all for {:.1f}% of the time", 100 * cpu.over_capacity_share)
                           : std::string());
  out << fmt::format("{}-hours    {:.0f} busy, {:.0f} stranded, {:.0f} idle, {:.0f} total\n", device,
                     hours.by_state.at(GpuState::Busy), hours.by_state.at(GpuState::Stranded),
                     hours.by_state.at(GpuState::Idle), hours.total);
  if (const auto& energy = summary.energy)
    out << fmt::format("energy       {:.1f} MWh IT ({:.1f} MWh with PUE {:g}), mean {:.0f} kW; GPUs {:.0f} W on "
                       "average, {:.1f}% of GPU-time not computing\n",
                       energy->it_kwh / 1000, energy->facility_kwh / 1000, energy->pue, energy->mean_it_kw,
                       energy->mean_gpu_w, 100 * energy->idle_gpu_time_share);
  for (const auto& flag : summary.binding)
    out << fmt::format("binding      {}: {}\n", flag.resource, flag.why);
  print_by_type(out, summary, device);
  print_faults(out, summary, device);
  print_evaluation(out, summary);
  // failures.csv is written whenever failures are on (a model, or a recorded list).
  const bool failures = scenario.failures.source != FailureSpec::Source::None;
  out << fmt::format("results      {}/: jobs.csv, summary.json, utilisation.csv{}{}\n", out_dir,
                     failures ? ", failures.csv" : "", scenario.output.timeline ? ", timeline.json" : "");
}

} // namespace acmesim
