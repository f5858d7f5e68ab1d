#pragma once
// Every job of the run and what became of it: the workload's jobs, then the evaluation trials the
// run adds (campaigns triggered by checkpoints), each with its record (first start, end, outcome).
// Engine-free; the only owner of job records.
#include "models/workload/Job.hpp"

#include <deque>
#include <vector>

namespace acmesim {

enum class JobOutcome : std::uint8_t {
  Pending,  // not submitted yet, or queued (again, after an interruption)
  Running,  // holds GPUs (running, or recovering in place from a failure), or CPU-only and running
  Ended,    // ran to its end (or was given up after too many interruptions)
  Rejected, // asks for more GPUs than any pod has: it can never start
};

struct JobRecord {
  JobOutcome outcome = JobOutcome::Pending;
  double start_s = -1; // first start
  double end_s = -1;
};

class JobTable {
public:
  explicit JobTable(const Workload& workload);

  // Ids are dense: the workload's jobs, then those added during the run.
  std::size_t count() const { return workload_jobs_ + added_jobs_.size(); }
  const Job& job(JobId id) const
  {
    return id < workload_jobs_ ? first_job_[id] : added_jobs_[id - workload_jobs_];
  }
  const JobRecord& record(JobId id) const { return records_.at(id); }
  // The work of an evaluation trial (precondition: job(id).eval_trial()).
  const EvalChunk& chunk(JobId id) const;
  const Workload& workload() const { return *workload_; }

  void started(JobId id, double now); // Running; the first start is kept
  void requeued(JobId id);            // Pending again
  void ended(JobId id, double now);
  void rejected(JobId id);
  // Adds an evaluation trial (its id and chunk index are set here); returns its id.
  JobId add_trial(Job trial, EvalChunk chunk);

  std::size_t ended_count() const { return ended_; }
  std::size_t rejected_count() const { return rejected_; }
  // Some job has yet to end or be rejected.
  bool work_remains() const { return ended_ + rejected_ < count(); }

private:
  const Workload* workload_;
  // The workload's jobs, looked up on every scheduler decision (a backfill scan reads each queued
  // job): kept at hand rather than reached through the workload each time.
  const Job* first_job_;
  std::size_t workload_jobs_;
  std::deque<Job> added_jobs_; // a deque: references to jobs stay valid as it grows
  std::deque<EvalChunk> added_chunks_;
  std::vector<JobRecord> records_; // by id; read after the run or copied at once, so growing may move it
  std::size_t ended_ = 0;
  std::size_t rejected_ = 0;
};

} // namespace acmesim
