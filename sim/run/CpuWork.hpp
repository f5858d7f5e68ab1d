#pragma once
// Work that holds no GPU and only ends its job's record when it is done: CPU-only jobs (CPU
// capacity is not modelled, so they run from their submission; the CPU cores they hold are
// published, for the CPU demand the summary reports) and evaluation metrics moved off the GPUs.
// Ends in (time, job id) order.
#include "sim/run/JobTable.hpp"
#include "sim/run/RunEvents.hpp"
#include "sim/run/TimerQueue.hpp"

namespace acmesim {

class CpuWork {
public:
  explicit CpuWork(const RunEvents& events) : events_(events) {}

  // A CPU-only job starts now and runs its duration on its CPU cores.
  void start_cpu_only(const Job& job, double now)
  {
    events_.publish(CpusChanged{now, job.id, job.cpus});
    run_until(job.id, now + job.duration_s);
  }
  // The job's record ends at `end_s` (an evaluation metric on CPUs holds no cores of its own).
  void run_until(JobId job, double end_s) { ends_.push(end_s, job, job); }
  double next_time() const { return ends_.next_time(); }
  void end_due(double now, JobTable& jobs)
  {
    while (const auto job = ends_.pop_due(now)) {
      if (const Job& j = jobs.job(*job); j.cpu_only())
        events_.publish(CpusChanged{now, j.id, -j.cpus});
      jobs.ended(*job, now);
    }
  }

private:
  const RunEvents& events_;
  TimerHeap<JobId> ends_;
};

} // namespace acmesim
