#pragma once
// What a Python policy's decide(view, events) sees and decides through: the view of one call,
// and the embedded module `acmesim` that binds it (PythonView.cpp). The view keeps a scratch copy
// of the free GPUs, made on first need, that the call's own decisions update, so that
// view.place and view.capacity account for the jobs the call has started or preempted.
#include "sim/policy_api/SchedulerApi.hpp"

#include <optional>
#include <unordered_set>

namespace acmesim {

class PythonView {
public:
  PythonView(const ClusterView& view, PlacementPolicy& placement, Decisions& out)
      : view_(&view), placement_(placement), out_(&out)
  {
  }

  // The run's view; raises in Python once the call is over (a policy may keep the object).
  const ClusterView& view() const;
  void expire() { view_ = nullptr; }
  // A node of the cluster, or a job of the run, or a Python ValueError.
  NodeId node(NodeId n) const;
  JobId job_id(JobId id) const;
  // The free GPUs with this call's decisions applied so far.
  ClusterState& scratch();
  // Decisions, applied to the scratch state as they are made (what cannot be applied raises).
  void start(JobId job, const Allocation& allocation);
  void preempt(JobId job);
  void wake_at(double time);
  // The scenario's placement on the scratch state (empty if the job does not fit now).
  Allocation place(int gpus) { return placement_.place(scratch(), gpus); }

private:
  const ClusterView* view_;
  PlacementPolicy& placement_;
  Decisions* out_;
  std::optional<ClusterState> scratch_;
  std::unordered_set<JobId> started_; // in this call
};

// Makes `acmesim` importable by policies; call before the first import of a policy.
void register_python_module();

} // namespace acmesim
