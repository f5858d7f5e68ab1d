#include "sim/report/Reports.hpp"

#include "models/common/Text.hpp"
#include "sim/report/SummaryParts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

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

// Every node `id` held: those of its allocation, in its order, then, for a job that lost nodes
// or was queued again, those it held before, all sorted and distinct.
void nodes_held(const Run& run, JobId id, std::vector<NodeId>& held)
{
  held.clear();
  for (const auto& part : run.allocation(id).parts)
    held.push_back(part.node);
  if (const std::vector<NodeId>* earlier = run.earlier_nodes(id)) {
    held.insert(held.end(), earlier->begin(), earlier->end());
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
  }
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
  std::vector<NodeId> held;
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    const JobRecord& r = run.jobs().record(id);
    const Allocation& allocation = run.allocation(id);
    const JobFaultStats* stats = run.statistics().fault_stats(id); // null for most jobs
    row.clear();
    const bool ran = r.outcome == JobOutcome::Ended;
    nodes_held(run, id, held);
    std::set<LeafId> leaves;
    for (const NodeId node : held)
      leaves.insert(topology.leaf_of(node));
    fmt::format_to(std::back_inserter(row), "{},{},{},{},{},{},{:.3f},", csv_field(job.name), to_string(job.type),
                   csv_field(job.user), job.gpus, held.size(), job.cpus, job.submit_s);
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
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (i > 0)
        row.push_back(' ');
      const auto& name = topology.node_name(held[i]);
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
