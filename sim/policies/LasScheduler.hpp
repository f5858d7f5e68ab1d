#pragma once
// Discretised two-dimensional least-attained-service, as Tiresias schedules deep-learning jobs
// without knowing their durations (Gu et al., NSDI'19). A job's attained service is the GPUs it
// asked for times the time it has held them, over all its attempts. Thresholds split attained
// service into queues: queue 0 below the first threshold, each next threshold threshold_factor
// times the one before. Jobs go by queue, then submission order; a job that fits starts (no
// reservation: a job that does not fit waits, and the ones behind it may start). A queued job
// that does not fit preempts running jobs of later queues (the last queue first, the latest
// started first in a queue), the fewest that make room. A running job whose service crosses a
// threshold moves to the next queue then, and so may be preempted by jobs queued ahead of it.
#include "sim/policies/QueueScheduler.hpp"

#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace acmesim {

class LasScheduler final : public QueueScheduler {
public:
  // `thresholds_gpu_s`: ascending, one fewer than the queues.
  LasScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
               std::vector<double> thresholds_gpu_s);

  // The queue of a job that has attained `gpu_s` GPU-seconds of service.
  int queue_of(double gpu_s) const;

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;
  void on_queued(const ClusterView& view, JobId job) override;
  bool can_preempt() const override { return true; }

private:
  struct Running {
    int queue = 0;
    int gpus = 0;
    double start_s = 0;
    double attained_at_start = 0; // GPU-seconds
    double demote_at = 0;         // when it crosses its queue's threshold (+infinity: last queue)
  };
  // When a job running from `r.start_s` leaves queue `r.queue`.
  double demotion_time(const Running& r) const;
  // Moves running jobs whose service crossed a threshold by now to their next queue.
  void demote_due(double now);
  // Running jobs of queues after `queue`, in the order they are preempted.
  std::vector<JobId> victims_for(const ClusterView& view, int queue) const;

  std::vector<double> thresholds_;
  std::unordered_map<JobId, Running> running_;
  std::vector<std::set<std::pair<double, std::int64_t>>> running_in_; // per queue: (-start, -id)
  std::set<std::pair<double, JobId>> demotions_;                      // (time, id)
  std::set<std::pair<int, JobId>> order_;                             // queued: (queue, id)
  std::unordered_map<JobId, double> attained_;                        // queued jobs: GPU-seconds
  std::optional<std::pair<JobId, double>> handed_over_; // a job that just stopped: its service
  std::set<JobId> preempted_this_pass_;
};

} // namespace acmesim
