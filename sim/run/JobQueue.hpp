#pragma once
// Jobs waiting for GPUs, in queue order (submission order: by job id), and the submissions still
// to come. CPU-only jobs start at submission on CPUs; a job larger than any pod is rejected.
#include "sim/run/CpuWork.hpp"
#include "sim/run/JobTable.hpp"
#include "sim/run/SchedulerInbox.hpp"

#include <set>

namespace acmesim {

class JobQueue {
public:
  // `largest_fit`: the most GPUs a job may ask for and still fit some pod when it is empty.
  JobQueue(JobTable& jobs, CpuWork& cpu_work, SchedulerInbox& inbox, int largest_fit);

  double next_arrival() const;
  // Submits the workload's jobs due at `now`.
  void submit_due(double now);
  // Queues a job submitted during the run (a triggered trial) or again (after an interruption);
  // the caller posts the event that tells the scheduler which.
  void enqueue(JobId job) { queued_.insert(job); }
  // Removes a job the scheduler started; false if it was not queued.
  bool remove(JobId job) { return queued_.erase(job) > 0; }
  bool contains(JobId job) const { return queued_.count(job) > 0; }
  const std::set<JobId>& ids() const { return queued_; }
  std::size_t cpu_only_jobs() const { return cpu_only_jobs_; }

private:
  JobTable& jobs_;
  CpuWork& cpu_work_;
  SchedulerInbox& inbox_;
  int largest_fit_;
  std::size_t next_arrival_ = 0;
  std::set<JobId> queued_;
  std::size_t cpu_only_jobs_ = 0;
};

} // namespace acmesim
