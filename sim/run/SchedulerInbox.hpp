#pragma once
// What the scheduler will be told at the end of the current instant. Components post events as
// things happen; the run delivers them in the documented order (EventKind, then job or node id).
#include "sim/policy_api/SchedulerApi.hpp"

#include <algorithm>
#include <vector>

namespace acmesim {

class SchedulerInbox {
public:
  void post_job(EventKind kind, JobId job) { events_.push_back({kind, 0, job, 0}); }
  void post_node(EventKind kind, NodeId node) { events_.push_back({kind, 0, 0, node}); }
  bool empty() const { return events_.empty(); }
  std::size_t size() const { return events_.size(); }

  // Every posted event, dated `now`, in delivery order (stable within a kind and id). Valid until
  // the next call; both buffers keep their capacity, since the run takes events at most instants.
  const std::vector<SchedulerEvent>& take(double now)
  {
    delivered_.assign(events_.begin(), events_.end());
    events_.clear();
    for (auto& e : delivered_)
      e.time = now;
    const auto in_order = [](const SchedulerEvent& a, const SchedulerEvent& b) {
      return delivery_key(a) < delivery_key(b);
    };
    if (!std::is_sorted(delivered_.begin(), delivered_.end(), in_order))
      std::stable_sort(delivered_.begin(), delivered_.end(), in_order);
    return delivered_;
  }

private:
  static std::pair<int, std::uint32_t> delivery_key(const SchedulerEvent& e)
  {
    const bool node_event = e.kind == EventKind::NodeDown || e.kind == EventKind::NodeUp;
    return {static_cast<int>(e.kind), node_event ? e.node : e.job};
  }

  std::vector<SchedulerEvent> events_;    // posted during this instant
  std::vector<SchedulerEvent> delivered_; // the last instant's, as delivered
};

} // namespace acmesim
