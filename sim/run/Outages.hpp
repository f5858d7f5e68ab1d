#pragma once
// Failures as they take effect: which components are down and why (a node may be out for its own
// failure and its leaf switch's), the repairs under way, recurring failures escalated to a part
// replacement, lemon defects cured. A failure interrupts the jobs on what failed; the node side
// goes to NodeService, the job side to JobRecovery. Failed components are also turned off on the
// platform (TransferService).
#include "models/failure/FailureEvent.hpp"
#include "sim/run/JobRecovery.hpp"
#include "sim/run/NodeService.hpp"
#include "sim/run/RunCore.hpp"
#include "sim/run/TimerQueue.hpp"
#include "sim/run/TrainingJobs.hpp"
#include "sim/run/TransferTable.hpp"

#include <deque>
#include <vector>

namespace acmesim {

class Outages {
public:
  Outages(RunCore core, NodeService& nodes, JobRecovery& recovery, TrainingJobs& training, TransferTable& transfers,
          FailureSource* failures, const RecoveryPolicy* policy, TransferService* platform);

  // +infinity when nothing is due: no failure source, or its stream is exhausted.
  double next_failure_time() const;
  double next_repair_time() const { return repairs_.next_time(); }
  // Applies the next failure of the source (precondition: next_failure_time() is finite).
  void apply_next_failure();
  // Ends the repairs due at `now`: components come back, nodes return to service or to the spares.
  void end_repairs_due(double now);

private:
  struct Repair {
    Component component = Component::Node;
    std::uint32_t target = 0;
    bool replacement = false;
  };
  void apply(const FailureEvent& e);
  void apply_to_node(const FailureEvent& e);
  bool component_down(Component c, std::uint32_t target) const;
  void interrupt_jobs_on(const std::vector<NodeId>& nodes, FailureCategory category);
  void node_down(NodeId node, const FailureEvent& cause);
  void start_repair(const FailureEvent& e, double repair_s, bool replacement);

  RunCore core_;
  NodeService& nodes_;
  JobRecovery& recovery_;
  TrainingJobs& training_;
  TransferTable& transfers_;
  FailureSource* failures_;
  const RecoveryPolicy* policy_;
  TransferService* platform_;
  TimerHeap<Repair> repairs_;
  std::vector<int> down_reasons_;  // per node: outages it is under (its own, its leaf's)
  std::vector<bool> leaf_down_;
  std::vector<bool> cured_;        // lemon defect repaired by a part replacement
  std::vector<std::deque<double>> recent_failures_; // per node, for escalation
};

} // namespace acmesim
