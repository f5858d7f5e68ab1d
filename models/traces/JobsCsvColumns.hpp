#pragma once
// The columns of a run's jobs.csv (docs/outputs.md), named once: sim/report writes them in this
// order, the `jobs` trace format reads a run's jobs.csv back through them (AcmeTraceReader), and
// `acmesim plot` hands their names to the figures.
#include "models/common/EnumNames.hpp"

#include <cstdint>
#include <string_view>

namespace acmesim {

enum class JobsCsvColumn : std::uint8_t {
  JobName, Type, User, Gpus, Nodes, Cpus, SubmitS, StartS, EndS, WaitS, JctS, State, Pod, Leaves, NodeList,
  Interruptions, Preemptions, Checkpoints, UsefulS, LostS, PreemptedS, CheckpointS, DetectionS, WaitingForPersonS,
  RestartS, Ettr,
  // What the source recorded (Job::recorded_wait_s, requested_s, requested_procs, labels), beside
  // the simulated values: each written when some job of the workload records it.
  RecordedWaitS, RequestedS, RequestedProcs, Group, Queue, Partition,
  Slowdown, RingBandwidthGBps, // with the network model only: the last columns
};
constexpr auto enum_names(JobsCsvColumn)
{
  return names_in_order<JobsCsvColumn>(
      "job_id", "type", "user", "gpus", "nodes", "cpus", "submit_s", "start_s", "end_s", "wait_s", "jct_s", "state",
      "pod", "leaves", "node_list", "interruptions", "preemptions", "checkpoints", "useful_s", "lost_s", "preempted_s",
      "checkpoint_s", "detection_s", "waiting_for_person_s", "restart_s", "ettr", "recorded_wait_s",
      "requested_s", "requested_procs", "group", "queue", "partition", "slowdown",
      "bus_bandwidth_GBps");
}
inline constexpr JobsCsvColumn FIRST_RECORDED_COLUMN = JobsCsvColumn::RecordedWaitS;
inline constexpr JobsCsvColumn LAST_RECORDED_COLUMN = JobsCsvColumn::Partition;

// The state column of a job larger than any pod it may run on: it never started.
inline constexpr std::string_view REJECTED_STATE = "REJECTED";
// The state column of a job still queued when its run stalled (the scheduler never started it).
inline constexpr std::string_view STALLED_STATE = "STALLED";

} // namespace acmesim
