#include "sim/run/Outages.hpp"

#include <algorithm>
#include <limits>

namespace acmesim {

Outages::Outages(RunCore core, NodeService& nodes, JobRecovery& recovery, TrainingJobs& training,
                 TransferTable& transfers, FailureSource* failures, const RecoveryPolicy* policy,
                 TransferService* platform)
    : core_(core)
    , nodes_(nodes)
    , recovery_(recovery)
    , training_(training)
    , transfers_(transfers)
    , failures_(failures)
    , policy_(policy)
    , platform_(platform)
    , down_reasons_(core.topology.node_count(), 0)
    , leaf_down_(core.topology.leaf_count(), false)
    , cured_(core.topology.node_count(), false)
    , recent_failures_(core.topology.node_count())
{
}

double Outages::next_failure_time() const
{
  return failures_ ? failures_->next_time() : std::numeric_limits<double>::infinity();
}

void Outages::apply_next_failure() { apply(failures_->pop()); }

bool Outages::component_down(Component c, std::uint32_t target) const
{
  if (c == Component::Storage)
    return !transfers_.storage_up();
  if (c == Component::LeafSwitch)
    return leaf_down_[target];
  return down_reasons_[target] > 0;
}

void Outages::interrupt_jobs_on(const std::vector<NodeId>& nodes, FailureCategory category)
{
  std::vector<JobId> victims;
  for (NodeId node : nodes) {
    const auto& holders = core_.holders.holders_on(node);
    victims.insert(victims.end(), holders.begin(), holders.end());
  }
  std::sort(victims.begin(), victims.end());
  victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
  for (JobId id : victims)
    recovery_.interrupt(id, category);
}

void Outages::node_down(NodeId node, const FailureEvent& cause)
{
  if (down_reasons_[node]++ == 0)
    nodes_.take_out(node, cause);
}

void Outages::start_repair(const FailureEvent& e, double repair_s, bool replacement)
{
  repairs_.push(core_.now() + repair_s, e.target, Repair{e.component, e.target, replacement});
  platform_->set_component_up(e.component, e.target, false);
}

void Outages::apply(const FailureEvent& e)
{
  if (e.excess && cured_[e.target]) {
    core_.events.publish(FailureIgnored{e, true});
    return;
  }
  if (component_down(e.component, e.target)) {
    core_.events.publish(FailureIgnored{e, false});
    return;
  }
  core_.events.publish(FailureApplied{e});
  if (e.component == Component::Storage) {
    // Jobs moving checkpoint data fail; later transfers wait for the repair.
    transfers_.set_storage_up(false);
    for (JobId id : transfers_.jobs_moving_data())
      recovery_.interrupt(id, e.category);
    start_repair(e, e.repair_s, e.replacement);
    return;
  }
  if (e.component == Component::LeafSwitch) {
    const std::vector<NodeId> nodes = core_.topology.nodes_of_leaf(e.target);
    interrupt_jobs_on(nodes, e.category);
    leaf_down_[e.target] = true;
    for (NodeId node : nodes)
      node_down(node, e);
    start_repair(e, e.repair_s, e.replacement);
    return;
  }
  apply_to_node(e);
}

void Outages::apply_to_node(const FailureEvent& e)
{
  const NodeId node = e.target;
  interrupt_jobs_on({node}, e.category);
  // A node that crashed is out whatever the policy; a node that still answers leaves service
  // only if diagnosis finds it (otherwise it stays in the pool, fault and all).
  if (e.category != FailureCategory::NodeFailure && !policy_->diagnoses())
    return;
  double repair_s = e.repair_s;
  bool replacement = e.replacement;
  if (policy_->diagnoses()) {
    auto& recent = recent_failures_[node];
    recent.push_back(core_.now());
    while (recent.front() < core_.now() - policy_->escalation_window_s())
      recent.pop_front();
    if (!replacement && policy_->escalates(recent)) {
      repair_s = std::max(repair_s, policy_->escalation_repair_s());
      replacement = true;
      core_.events.publish(RepairEscalated{node});
      recent.clear();
    }
  }
  node_down(node, e);
  start_repair(e, repair_s, replacement);
}

void Outages::end_repairs_due(double now)
{
  while (const auto r = repairs_.pop_due(now)) {
    platform_->set_component_up(r->component, r->target, true);
    if (r->component == Component::Storage) {
      transfers_.set_storage_up(true);
      training_.storage_back();
      continue;
    }
    std::vector<NodeId> nodes;
    if (r->component == Component::LeafSwitch) {
      leaf_down_[r->target] = false;
      nodes = core_.topology.nodes_of_leaf(r->target);
    } else {
      if (r->replacement)
        cured_[r->target] = true; // a replaced part ends a lemon's excess failures
      nodes = {r->target};
    }
    for (NodeId node : nodes)
      if (--down_reasons_[node] == 0)
        nodes_.bring_back(node);
  }
}

} // namespace acmesim
