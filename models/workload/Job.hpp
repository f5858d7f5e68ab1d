#pragma once
// The job record every workload source produces and every scheduler consumes.
#include "models/evaluation/EvalSpec.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// Job categories of the Acme trace (NSDI'24, Fig. 4).
enum class JobType : std::uint8_t { Pretrain, Eval, SFT, MLLM, Debug, Other };
inline constexpr std::array<JobType, 6> ALL_JOB_TYPES{JobType::Pretrain, JobType::Eval, JobType::SFT,
                                                      JobType::MLLM,     JobType::Debug, JobType::Other};

// Final states as recorded by the Acme trace (Slurm names).
enum class JobState : std::uint8_t { Completed, Failed, Cancelled, Timeout, NodeFail };
inline constexpr std::array<JobState, 5> ALL_JOB_STATES{JobState::Completed, JobState::Failed, JobState::Cancelled,
                                                        JobState::Timeout, JobState::NodeFail};

std::string_view to_string(JobType type);
std::string_view to_string(JobState state);
// Exact, case-sensitive names as written in the trace ("Eval", "COMPLETED").
std::optional<JobType> parse_job_type(std::string_view name);
std::optional<JobState> parse_job_state(std::string_view name);
// "Pretrain, Eval, ..." for error messages.
std::string job_type_names();
std::string job_state_names();

using JobId = std::uint32_t; // dense index into Workload::jobs, in submission order

// Longest duration or time offset a trace may hold (about 31.7 years): beyond it a value is a
// unit or typing error, and GPU-seconds built from it would overflow to infinity.
inline constexpr double MAX_TRACE_SECONDS = 1e9;

struct Job {
  JobId id = 0;
  std::string name; // identifier from the source (trace job_id), or "<Type>-<k>" when generated
  std::string user;
  JobType type = JobType::Other;
  int gpus = 0;        // 0 = CPU-only job: never takes GPUs
  int trace_nodes = 0; // node count recorded by the source (informational)
  int cpus = 0;
  double submit_s = 0;   // seconds since the first submission of the workload
  double duration_s = 0; // run time once started
  JobState final_state = JobState::Completed;
  std::int32_t eval_chunk = -1; // evaluation trial: index into Workload::eval_chunks

  bool cpu_only() const { return gpus == 0; }
  bool eval_trial() const { return eval_chunk >= 0; }
};

// A job stream sorted by (submit_s, source order), ids renumbered 0..n-1 in that order.
struct Workload {
  std::vector<Job> jobs;
  std::string source;          // trace path or "synthetic"
  std::size_t skipped_rows = 0; // bad rows skipped on request (on_bad_row: skip)
  std::vector<EvalChunk> eval_chunks; // the work of evaluation trials (Job::eval_chunk)
  std::vector<double> eval_campaigns_s; // submission time of each evaluation campaign
};

// Sorts by submission time (stable, so source order breaks ties), rebases times so that the
// first submission is at 0, and renumbers ids densely.
void normalise_workload(Workload& workload);

} // namespace acmesim
