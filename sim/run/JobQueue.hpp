#pragma once
// Jobs waiting for GPUs, in queue order (submission order: by job id), and the submissions still
// to come. CPU-only jobs start at submission on CPUs; a job larger than any pod it may run on is
// rejected.
#include "sim/run/CpuWork.hpp"
#include "sim/run/JobTable.hpp"
#include "sim/run/SchedulerInbox.hpp"

#include <functional>
#include <queue>
#include <set>
#include <utility>
#include <vector>

namespace acmesim {

class JobQueue {
public:
  // `largest_fits`: per pod, the most GPUs a job may ask for and still fit it when it is empty.
  // `start_overhead_s`: by job id, how long after its submission a GPU job enters the queue
  // (StartOverheads.hpp); empty: at once.
  JobQueue(JobTable& jobs, CpuWork& cpu_work, SchedulerInbox& inbox, std::vector<int> largest_fits,
           std::vector<double> start_overhead_s = {});

  double next_arrival() const;
  // Submits the workload's jobs due at `now`, and queues those whose start overhead ends now.
  void submit_due(double now);
  // Queues a job submitted during the run (a triggered trial) or again (after an interruption);
  // the caller posts the event that tells the scheduler which.
  void enqueue(JobId job) { queued_.insert(job); }
  // Removes a job the scheduler started; false if it was not queued.
  bool remove(JobId job) { return queued_.erase(job) > 0; }
  bool contains(JobId job) const { return queued_.count(job) > 0; }
  const std::set<JobId>& ids() const { return queued_; }
  std::size_t cpu_only_jobs() const { return cpu_only_jobs_; }
  double start_overhead_s(JobId job) const { return job < start_overhead_s_.size() ? start_overhead_s_[job] : 0.0; }

private:
  bool fits_when_empty(const Job& job) const;

  JobTable& jobs_;
  CpuWork& cpu_work_;
  SchedulerInbox& inbox_;
  std::vector<int> largest_fits_;
  std::vector<double> start_overhead_s_;
  std::size_t next_arrival_ = 0;
  // Submitted jobs still in their start overhead: (time they enter the queue, job), earliest first.
  std::priority_queue<std::pair<double, JobId>, std::vector<std::pair<double, JobId>>, std::greater<>> held_back_;
  std::set<JobId> queued_;
  std::size_t cpu_only_jobs_ = 0;
};

} // namespace acmesim
