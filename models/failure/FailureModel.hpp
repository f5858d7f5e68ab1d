#pragma once
// The seeded failure model: an independent renewal process per component instance (each node,
// GPU, NVLink fabric, NIC, leaf switch and the storage service), generated lazily in time order.
// Each instance draws from its own named stream ("failures.node.17"), so the failures of one
// component do not depend on how many others exist or on what the simulation does: two
// policies run with the same seed see the same draws (common random numbers).
#include "models/cluster/Topology.hpp"
#include "models/failure/FailureEvent.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace acmesim {

class FailureModel final : public FailureSource {
public:
  FailureModel(const FailureSpec& spec, const Topology& topology, std::uint64_t seed);
  ~FailureModel() override;

  double next_time() const override;
  // Ties at one instant: by component (enum order), then target, then instance (creation
  // order: GPUs by index, a base process before its lemon excess); a neighbour failure right
  // after the failure that caused it.
  FailureEvent pop() override;

  // Lemon nodes: those whose rate multiplier is above 1, whether the seed chose them or
  // node_rate_multipliers names them (sorted); and every node's rate multiplier (1 for most).
  const std::vector<NodeId>& lemon_nodes() const;
  double rate_multiplier(NodeId node) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Expected failures per second that interrupt a job holding `nodes` whole nodes of `pod`
// (its node-level components at the cluster's mean rate multiplier, plus the leaf switches it
// is likely to span); 0 when the model is off. Used for Young's and Daly's intervals.
double expected_job_failure_rate(const FailureSpec& spec, const Topology& topology, int pod, int nodes);

} // namespace acmesim
