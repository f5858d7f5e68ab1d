#pragma once
// Common ground of queue-based schedulers (fifo, easy-backfill, ...): a private mirror of the
// cluster kept in step with the simulation through the events and the scheduler's own start
// and preemption decisions, so a scheduling pass can place several jobs one after another without touching
// (or copying) the simulation's state.
#include "sim/policy_api/SchedulerApi.hpp"

#include <memory>
#include <unordered_map>

namespace acmesim {

class QueueScheduler : public Scheduler {
public:
  QueueScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement);

  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) final;

protected:
  // One scheduling pass over view.queue(), calling try_start for the jobs it wants to run.
  // `events` are this call's events (already applied to the mirror).
  virtual void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) = 0;
  // Hooks for subclasses that track running jobs.
  virtual void on_started(const ClusterView& view, JobId job);
  // A job it started finished or was requeued after a failure (at view.now()).
  virtual void on_finished(const ClusterView& view, JobId job);
  // A job entered the queue: submitted, or requeued after a failure (called for every such
  // event, also when the pass that follows has nothing to do).
  virtual void on_queued(const ClusterView& view, JobId job);
  // Nodes left or entered service or allocations changed: the mirror was just rebuilt.
  virtual void on_cluster_changed();
  // Whether passes may preempt: then a pass runs even when no GPU is free.
  virtual bool can_preempt() const { return false; }

  // Places `job` on the mirror and records a start decision; false if it does not fit now.
  bool try_start(const ClusterView& view, JobId job);
  // Records a start decision on an allocation obtained from placement() on the mirror.
  void start_on(const ClusterView& view, JobId job, Allocation allocation);
  // Records a full decision (evaluation options, grouped trials) on an allocation from the mirror.
  void start_on(const ClusterView& view, StartDecision decision);
  // Records a preemption of a job it started that the view calls preemptible: its GPUs are free
  // on the mirror at once, and it is queued again (on_finished, then on_queued, are called).
  void preempt(const ClusterView& view, JobId job);
  // Preempts the fewest of `victims` (jobs it started, preemptible), taken in their order, that
  // make room for `job`, and starts it there. Returns how many it preempted; 0 (nothing done) if
  // not even all of them would make room (fragmentation, nodes down) or there are none.
  std::size_t start_by_preempting(const ClusterView& view, JobId job, const std::vector<JobId>& victims);
  // Asks to be called again at `time` (after now) even if nothing happens by then.
  void wake_at(double time);
  // Allocation of a job this scheduler started and that has not finished.
  const Allocation& allocation_of(JobId job) const { return allocations_.at(job); }
  const ClusterState& mirror() const { return mirror_; }
  PlacementPolicy& placement() { return *placement_; }

  // Largest request that fits now, in O(1) per question after one O(pods x gpus) refresh:
  // lets a pass skip hopeless candidates of a long queue cheaply.
  bool may_fit(int gpus) const;
  void refresh_fit_bounds();

private:
  // Rebuilds the mirror and the allocations of running jobs from the view (rare: failures).
  void resync(const ClusterView& view);

  ClusterState mirror_;
  std::unique_ptr<PlacementPolicy> placement_;
  std::unordered_map<JobId, Allocation> allocations_;
  Decisions* pending_ = nullptr;
  int largest_partial_ = 0; // largest GPU count free on one node
  int largest_whole_ = 0;   // most wholly free nodes in one pod
  int node_gpus_ = 0;       // GPUs per node (largest over pods)
  bool uniform_nodes_ = true; // every pod has node_gpus_ GPUs per node
};

} // namespace acmesim
