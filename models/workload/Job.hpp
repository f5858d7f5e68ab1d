#pragma once
// The job record every workload source produces and every scheduler consumes.
#include "models/common/EnumNames.hpp"
#include "models/workload/EvalChunk.hpp"

#include <boost/flyweight.hpp>
#include <boost/flyweight/no_tracking.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// Job categories of the Acme trace (NSDI'24, Fig. 4), named as the trace writes them
// (exact, case-sensitive).
enum class JobType : std::uint8_t { Pretrain, Eval, SFT, MLLM, Debug, Other };
constexpr auto enum_names(JobType)
{
  return names_in_order<JobType>("Pretrain", "Eval", "SFT", "MLLM", "Debug", "Other");
}

// Final states as recorded by the Acme trace (Slurm names).
enum class JobState : std::uint8_t { Completed, Failed, Cancelled, Timeout, NodeFail };
constexpr auto enum_names(JobState)
{
  return names_in_order<JobState>("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL");
}

using JobId = std::uint32_t; // dense index into Workload::jobs, in submission order

// Longest duration or time offset a trace may hold (about 31.7 years): beyond it a value is a
// unit or typing error, and GPU-seconds built from it would overflow to infinity.
inline constexpr double MAX_TRACE_SECONDS = 1e9;

// Text that many jobs share (a user, a home cluster), stored once for the process: each job holds
// a pointer-sized handle instead of a string of its own, so a Job is 112 bytes instead of 160 (six
// months of Acme: 900,000 jobs, a few hundred users). Read it with get(); values are never freed
// (no_tracking), so copying a handle costs no reference count.
using SharedText = boost::flyweight<std::string, boost::flyweights::no_tracking>;

// How the source filed a job (SWF fields 13, 15 and 16), kept for jobs.csv: empty where it
// recorded none. A log has few distinct combinations, so jobs share them as they share users.
struct RecordedLabels {
  std::string group;
  std::string queue;
  std::string partition;

  bool operator==(const RecordedLabels&) const = default;
  bool empty() const { return group.empty() && queue.empty() && partition.empty(); }
};
// The one copy of these labels, kept for the process: what Job::labels points at.
const RecordedLabels* intern_labels(RecordedLabels labels);

// A job not bound to a pod: it may run on any.
inline constexpr int ANY_POD = -1;

struct Job {
  JobId id = 0;
  std::string name; // identifier from the source (trace job_id), or "<Type>-<k>" when generated
  SharedText user;
  JobType type = JobType::Other;
  int gpus = 0;        // 0 = CPU-only job: never takes GPUs
  int trace_nodes = 0; // node count recorded by the source (informational)
  int cpus = 0;
  double submit_s = 0;   // seconds since the first submission of the workload
  double duration_s = 0; // run time once started
  JobState final_state = JobState::Completed;
  std::int32_t eval_chunk = -1; // evaluation trial: index into Workload::eval_chunks
  // The cluster the job was recorded on or generated for ("seren", "kalos"; empty if unknown),
  // and the pod it is bound to: the pod of that name when pods are scheduled separately
  // (scheduler.pods: separate, resolved when the workload is loaded), ANY_POD otherwise.
  SharedText home;
  int pod = ANY_POD;
  // What the source recorded beyond what the replay needs, written to jobs.csv beside the
  // simulated values; < 0 or empty: not recorded.
  int requested_procs = -1; // processors the user asked for (SWF field 8)
  // The queueing delay the source recorded (an Acme trace's `queue`, a run's jobs.csv `wait_s`),
  // for statistics; < 0: none (the job never started, or the source has no such field).
  double recorded_wait_s = -1;
  // The run time the user asked for (SWF field 9): what the machine's scheduler estimated the job
  // by (workload.estimates: requested).
  double requested_s = -1;
  // Null when the source filed the job under nothing: a plain pointer, so that making a Job (a
  // trace has hundreds of thousands) costs no lookup of empty labels.
  const RecordedLabels* labels = nullptr;

  bool cpu_only() const { return gpus == 0; }
  const RecordedLabels& recorded_labels() const;
  bool eval_trial() const { return eval_chunk >= 0; }
};

// Jobs of an SWF log dropped on request (workload.on_unknown: drop) because a field the replay
// needs is -1 (unknown). A job unknown in several fields counts once in `jobs` and once in each
// of its fields.
struct UnknownDrops {
  std::size_t jobs = 0;
  std::size_t submit_time = 0; // field 2
  std::size_t run_time = 0;    // field 4
  std::size_t size = 0;        // fields 5 and 8 (allocated and requested processors) both
};

// A job stream sorted by (submit_s, source order), ids renumbered 0..n-1 in that order.
struct Workload {
  std::vector<Job> jobs;
  std::string source;          // trace path or "synthetic"
  std::size_t skipped_rows = 0; // bad rows skipped on request (on_bad_row: skip)
  UnknownDrops dropped_unknown; // SWF jobs of unknown fields dropped on request (on_unknown: drop)
  std::vector<EvalChunk> eval_chunks; // the work of evaluation trials (Job::eval_chunk)
  std::vector<double> eval_campaigns_s; // submission time of each evaluation campaign
};

// Sorts by submission time (stable, so source order breaks ties), rebases times so that the
// first submission is at 0, and renumbers ids densely.
void normalise_workload(Workload& workload);

} // namespace acmesim
