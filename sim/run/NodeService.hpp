#pragma once
// Whether each node is in service, down (failed, under repair or cordoned) or held back as a hot
// spare, and the pool of spares of each pod. A node leaving service takes its GPUs from the jobs
// on it; the scheduler hears of nodes leaving and entering service (spares are out of service
// for it from the start).
#include "sim/run/RunCore.hpp"

#include <vector>

namespace acmesim {

class NodeService {
public:
  // `spares_per_pod`: hot spares the recovery policy keeps in each pod (the last nodes of a pod
  // at the start; repaired nodes refill the pool before they return to scheduling).
  NodeService(RunCore core, int spares_per_pod);

  // Holds the initial spares out of scheduling; call once, before the first instant.
  void hold_initial_spares();
  NodeHealth health(NodeId node) const { return health_.at(node); }
  int spares_in_pool(int pod) const { return in_pool_.at(static_cast<std::size_t>(pod)); }
  int spares_wanted(int pod) const { return wanted_.at(static_cast<std::size_t>(pod)); }

  // The node fails (or is cordoned): the jobs on it lose their GPUs there.
  void take_out(NodeId node, const FailureEvent& cause);
  // The node is repaired: it refills its pod's spare pool, or returns to scheduling.
  void bring_back(NodeId node);
  // The lowest-numbered `count` spares of `pod` (so that the choice is reproducible).
  std::vector<NodeId> spares(int pod, int count) const;
  // A spare enters service to replace a failed node of a job (which then takes its GPUs).
  void put_spare_in_service(NodeId node);

private:
  void set_health(NodeId node, NodeHealth to, const FailureEvent* cause);

  RunCore core_;
  std::vector<NodeHealth> health_;
  std::vector<int> wanted_;  // per pod
  std::vector<int> in_pool_; // per pod
};

} // namespace acmesim
