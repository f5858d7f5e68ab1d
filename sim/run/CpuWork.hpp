#pragma once
// Work that holds no GPU and only ends its job's record when it is done: CPU-only jobs (CPU
// capacity is not modelled, so they run from their submission) and evaluation metrics moved off
// the GPUs. Ends in (time, job id) order.
#include "sim/run/JobTable.hpp"
#include "sim/run/TimerQueue.hpp"

namespace acmesim {

class CpuWork {
public:
  void run_until(JobId job, double end_s) { ends_.push(end_s, job, job); }
  double next_time() const { return ends_.next_time(); }
  void end_due(double now, JobTable& jobs)
  {
    while (const auto job = ends_.pop_due(now))
      jobs.ended(*job, now);
  }

private:
  TimerHeap<JobId> ends_;
};

} // namespace acmesim
