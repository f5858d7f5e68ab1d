#pragma once
// The CPU cores that running jobs hold over a run, against the cores the cluster has: CPU-only jobs
// from their start to their end, GPU jobs (Job::cpus) while they hold GPUs. CPUs are not capacity
// (CpuWork.hpp), so the demand may exceed the cluster's cores; how long it did tells that CPUs,
// not GPUs, would have held jobs back. Engine-free.
#include "models/workload/Job.hpp"
#include "sim/run/RunEvents.hpp"

#include <cstdint>
#include <vector>

namespace acmesim {

// Integrals over the run, in core-seconds and seconds.
struct CpuFigures {
  std::int64_t capacity = 0;  // cores of every node
  double demand_core_s = 0;   // of the cores held
  double busy_core_s = 0;     // of the cores held, at most the capacity
  double over_capacity_s = 0; // time during which more cores were held than the cluster has
  std::int64_t peak_demand = 0; // the most cores held over a stretch of time
  double span_s = 0;
};

class CpuDemandRecorder final : public RunObserver {
public:
  // `jobs`: the workload's (jobs added during the run, evaluation trials, hold no cores of their own).
  CpuDemandRecorder(const std::vector<Job>& jobs, std::int64_t capacity);

  using RunObserver::on;
  void on(const GpusTaken& c) override;
  void on(const GpusReturned& c) override;
  void on(const CpusChanged& c) override { change(c.now, c.cpus); }

  // The figures from time 0 to `end_s` (the run's makespan, at or after the last change).
  CpuFigures until(double end_s) const;

private:
  int cpus_of(JobId job) const { return job < jobs_.size() ? jobs_[job].cpus : 0; }
  void change(double now, std::int64_t delta);

  const std::vector<Job>& jobs_;
  CpuFigures figures_;
  std::int64_t demand_ = 0;
};

} // namespace acmesim
