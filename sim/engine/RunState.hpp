#pragma once
// What happens to jobs and GPUs during a run, independent of the engine that keeps time:
// the queue, the running jobs, the cluster state, the ledger and the per-job records. The
// engine adapter (Simulation) asks for the next event time, advances its clock there and
// calls process_instant(); everything that happens at one instant is handled there in the
// documented order (see EventKind).
#include "models/workload/Job.hpp"
#include "sim/ledger/Ledger.hpp"
#include "sim/scheduler/SchedulerApi.hpp"

#include <functional>
#include <limits>
#include <queue>
#include <vector>

namespace acmesim {

enum class JobOutcome : std::uint8_t {
  Pending,  // not submitted yet, or queued
  Running,
  Ended,    // ran to its recorded end
  Rejected, // asks for more GPUs than any pod has: it can never start
};

struct JobRecord {
  JobOutcome outcome = JobOutcome::Pending;
  double start_s = -1;
  double end_s = -1;
  Allocation allocation; // kept after the end for the report
};

struct RunCounters {
  std::uint64_t scheduler_calls = 0;
  std::uint64_t instants = 0;
  std::size_t max_queue_length = 0;
  std::size_t rejected_jobs = 0;
  std::size_t cpu_only_jobs = 0;
};

class RunState final : public ClusterView {
public:
  RunState(const Topology& topology, const Workload& workload, Scheduler& scheduler);

  // +infinity once nothing is left to happen.
  double next_event_time() const;
  void process_instant(double now);
  bool finished() const { return next_event_time() == std::numeric_limits<double>::infinity(); }

  const std::vector<JobRecord>& records() const { return records_; }
  const Ledger& ledger() const { return ledger_; }
  const RunCounters& counters() const { return counters_; }
  std::size_t ended_jobs() const { return ended_; }

  // ClusterView
  double now() const override { return now_; }
  const Topology& topology() const override { return *topology_; }
  const ClusterState& cluster() const override { return cluster_; }
  const Job& job(JobId id) const override { return workload_->jobs[id]; }
  const std::set<JobId>& queue() const override { return queue_; }
  RunningJob running(JobId id) const override;

private:
  void finish_jobs(std::vector<SchedulerEvent>& events);
  void submit_jobs(std::vector<SchedulerEvent>& events);
  void apply(const Decisions& decisions);
  JobShape checked_shape(const Job& j, const Allocation& allocation) const;

  const Topology* topology_;
  const Workload* workload_;
  Scheduler* scheduler_;
  ClusterState cluster_;
  Ledger ledger_;
  double now_ = 0;
  int largest_fit_ = 0; // most GPUs a job may ask for and still fit some pod when empty
  std::size_t next_arrival_ = 0;
  std::set<JobId> queue_;
  // Min-heap of (end time, job id): ties end in job-id order.
  std::priority_queue<std::pair<double, JobId>, std::vector<std::pair<double, JobId>>, std::greater<>> ends_;
  std::vector<JobRecord> records_;
  std::size_t ended_ = 0;
  RunCounters counters_;
};

} // namespace acmesim
