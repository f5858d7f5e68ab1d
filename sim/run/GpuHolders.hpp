#pragma once
// Who holds which GPUs, in which phase. A holder is a GPU job, or the leader of a group of
// evaluation trials that run one after another on its GPUs. This component owns the free-GPU
// state of the cluster (what schedulers see), each job's allocation, the jobs on each node, and
// each holder's phase with its timer; every change of what a holder holds or of its phase is
// published from here (GpusTaken, GpusReturned, PhaseChanged), which is how the ledger learns it.
// Engine-free.
#include "sim/policy_api/ClusterState.hpp"
#include "sim/run/Clock.hpp"
#include "sim/run/JobTable.hpp"
#include "sim/run/RunEvents.hpp"
#include "sim/run/TimerQueue.hpp"

#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace acmesim {

class GpuHolders {
public:
  GpuHolders(const Topology& topology, const JobTable& jobs, const Clock& clock, const RunEvents& events);

  const ClusterState& cluster() const { return cluster_; }
  // The GPUs `job` holds now, or held last (kept after its end for the report; forgotten when it
  // is queued again). Nodes that left service under it are no longer part of it.
  const Allocation& allocation(JobId job) const
  {
    return job < allocations_.size() ? allocations_[job] : NO_ALLOCATION;
  }
  // Nodes `job` held before and does not hold now: lost under it, or given back when it was
  // queued again. Sorted and distinct; nullptr for a job that never lost a node nor was queued
  // again (most jobs), so that only those few pay for the record.
  const std::vector<NodeId>* earlier_nodes(JobId job) const
  {
    const auto it = earlier_nodes_.find(job);
    return it == earlier_nodes_.end() ? nullptr : &it->second;
  }
  // Started and not given back yet (running, or recovering in place from a failure).
  bool holds(JobId job) const;
  // Every holder that holds() now, by id: from take() to release().
  const std::set<JobId>& holders() const { return holders_; }
  JobPhase phase(JobId holder) const { return holder < phases_.size() ? phases_[holder].phase : JobPhase::Queued; }
  double phase_start(JobId holder) const { return phases_.at(holder).since; }
  // GPU jobs holding GPUs on `node`, in the order they took them.
  const std::vector<JobId>& holders_on(NodeId node) const { return on_node_.at(node); }

  // A queued holder takes `allocation`: it enters Starting, its GPUs in the Restart state.
  // Throws if the GPUs are not free.
  void take(JobId holder, const Allocation& allocation);
  // A node just put in service (a spare) joins what `holder` holds, in its current phase.
  void add_node(JobId holder, Allocation::Part part);
  // `node` left service under `holder`: its GPUs there are given back without becoming free.
  void lose_node(JobId holder, NodeId node);
  // The holder gives back everything and ends (Ended: its allocation is kept for the report) or
  // waits in the queue again (Queued).
  void release(JobId holder, JobPhase to, JobId shown);
  // The holder enters `phase`; the time of the one it leaves counts for `shown`. Voids its timer.
  void enter(JobId holder, JobPhase phase, JobId shown);
  // `shown` leaves the holder's GPUs: its time in the current phase ends, the phase goes on.
  void restart_phase_clock(JobId holder, JobId shown);
  void set_in_service(NodeId node, bool in_service) { cluster_.set_in_service(node, in_service); }
  // The report of a trial shows the GPUs its group's leader held for it.
  void record_allocation(JobId trial, JobId leader);

  // One timer per holder: the end of its current phase (or of a step within it).
  void arm(JobId holder, double at) { timers_.arm(holder, at); }
  double next_timer() const { return timers_.next_time(); }
  std::optional<JobId> pop_due_timer(double now) { return timers_.pop_due(now); }

private:
  struct PhaseState {
    JobPhase phase = JobPhase::Queued;
    double since = 0;
  };
  // The entries of `job`, the tables grown first to take the jobs added since (evaluation trials).
  PhaseState& state(JobId holder) { return holder < phases_.size() ? phases_[holder] : grown(phases_, holder); }
  Allocation& allocation_of(JobId job)
  {
    return job < allocations_.size() ? allocations_[job] : grown(allocations_, job);
  }
  template <typename Entry>
  Entry& grown(std::vector<Entry>& table, JobId job);
  Holding holding(JobId holder, JobPhase phase) const;
  void forget_on_nodes(JobId holder);
  void remember_earlier(JobId holder, NodeId node);

  static inline const Allocation NO_ALLOCATION; // what a job that never held GPUs holds

  const JobTable& jobs_;
  const Clock& clock_;
  const RunEvents& events_;
  ClusterState cluster_;
  // By job id. Growing them moves their entries: nothing keeps a reference across a call that may
  // add a job's entry.
  std::vector<Allocation> allocations_;
  std::vector<std::vector<JobId>> on_node_;
  std::vector<PhaseState> phases_; // by job id
  std::set<JobId> holders_;        // those that hold GPUs now
  std::unordered_map<JobId, std::vector<NodeId>> earlier_nodes_;
  JobTimers timers_;
};

} // namespace acmesim
