#include "sim/report/Reports.hpp"

#include "models/common/Text.hpp"
#include "sim/report/SummaryParts.hpp"

#include <fmt/format.h>

#include <set>

namespace acmesim {

namespace {

std::string_view state_column(const Job& job, const JobRecord& record, const JobFaultStats* stats)
{
  if (record.outcome == JobOutcome::Rejected)
    return "REJECTED";
  if (stats && stats->gave_up)
    return to_string(JobState::NodeFail); // given up after too many interruptions
  return to_string(job.final_state);
}

} // namespace

void write_jobs_csv(std::ostream& out, const RunResult& result, bool network_on)
{
  const auto& topology = *result.topology;
  const Run& run = *result.run;
  out << "job_id,type,user,gpus,nodes,cpus,submit_s,start_s,end_s,wait_s,jct_s,state,pod,leaves,node_list,"
         "interruptions,preemptions,checkpoints,useful_s,lost_s,preempted_s,checkpoint_s,detection_s,"
         "waiting_for_person_s,restart_s,ettr";
  // With the network model: each job's training wall time over its reference time (docs/network.md).
  out << (network_on ? ",slowdown\n" : "\n");
  fmt::memory_buffer row;
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    const JobRecord& r = run.jobs().record(id);
    const Allocation& allocation = run.allocation(id);
    const JobFaultStats* stats = run.statistics().fault_stats(id); // null for most jobs
    row.clear();
    const bool ran = r.outcome == JobOutcome::Ended;
    std::set<LeafId> leaves;
    for (const auto& part : allocation.parts)
      leaves.insert(topology.leaf_of(part.node));
    fmt::format_to(std::back_inserter(row), "{},{},{},{},{},{},{:.3f},", csv_field(job.name), to_string(job.type),
                   csv_field(job.user), job.gpus, allocation.node_count(), job.cpus, job.submit_s);
    if (ran)
      fmt::format_to(std::back_inserter(row), "{:.3f},{:.3f},{:.3f},{:.3f},", r.start_s, r.end_s,
                     r.start_s - job.submit_s, r.end_s - job.submit_s);
    else
      fmt::format_to(std::back_inserter(row), ",,,,");
    fmt::format_to(std::back_inserter(row), "{},", state_column(job, r, stats));
    if (!allocation.empty())
      fmt::format_to(std::back_inserter(row), "{}",
                     topology.spec().pods[static_cast<std::size_t>(topology.pod_of(allocation.parts.front().node))].name);
    fmt::format_to(std::back_inserter(row), ",{},", leaves.size());
    for (std::size_t i = 0; i < allocation.parts.size(); ++i) {
      if (i > 0)
        row.push_back(' ');
      const auto& name = topology.node_name(allocation.parts[i].node);
      row.append(name.data(), name.data() + name.size());
    }
    const JobFaultStats none;
    const JobFaultStats& f = stats ? *stats : none;
    const JobTimeSplit split = time_split(job, r, stats, run.statistics().trial_times(id));
    fmt::format_to(std::back_inserter(row), ",{},{},{},", f.interruptions, f.preemptions, f.checkpoints);
    if (split.ran)
      fmt::format_to(std::back_inserter(row), "{:.3f}", split.useful_s);
    fmt::format_to(std::back_inserter(row), ",{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},", f.lost_s, f.preempted_s,
                   f.checkpoint_s, f.detection_s, f.waiting_for_person_s, f.restart_s);
    if (split.ran)
      fmt::format_to(std::back_inserter(row), "{:.6f}", split.ettr);
    if (network_on) {
      row.push_back(',');
      if (ran)
        fmt::format_to(std::back_inserter(row), "{:.6f}", run.statistics().slowdown(id));
    }
    row.push_back('\n');
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
  }
}

} // namespace acmesim
