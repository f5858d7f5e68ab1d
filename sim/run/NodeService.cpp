#include "sim/run/NodeService.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

NodeService::NodeService(RunCore core, int spares_per_pod)
    : core_(core)
    , health_(core.topology.node_count(), NodeHealth::InService)
    , wanted_(core.topology.pod_count(), std::max(spares_per_pod, 0))
    , in_pool_(core.topology.pod_count(), 0)
{
}

void NodeService::hold_initial_spares()
{
  const Topology& topology = core_.topology;
  for (std::size_t pod = 0; pod < topology.pod_count(); ++pod) {
    const int spares = wanted_[pod];
    const int nodes = topology.spec().pods[pod].nodes;
    if (spares >= nodes)
      throw std::logic_error("recovery keeps every node of a pod as a spare (the loader should refuse it)");
    const NodeId first = topology.first_node_of_pod(static_cast<int>(pod));
    for (NodeId node = first + static_cast<NodeId>(nodes - spares); node < first + static_cast<NodeId>(nodes); ++node) {
      set_health(node, NodeHealth::Spare, nullptr);
      ++in_pool_[pod];
      core_.holders.set_in_service(node, false);
      core_.inbox.post_node(EventKind::NodeDown, node); // the scheduler learns at its first call
    }
  }
}

void NodeService::set_health(NodeId node, NodeHealth to, const FailureEvent* cause)
{
  const NodeHealth from = health_[node];
  health_[node] = to;
  core_.events.publish(NodeHealthChanged{core_.now(), node, from, to, core_.topology.gpus_of(node), cause});
}

void NodeService::take_out(NodeId node, const FailureEvent& cause)
{
  // Jobs on the node were interrupted just before: they lose their part of it.
  std::vector<JobId> holders = core_.holders.holders_on(node);
  std::sort(holders.begin(), holders.end());
  for (JobId job : holders)
    core_.holders.lose_node(job, node);
  core_.holders.set_in_service(node, false);
  // A spare is already out of service for the scheduler: it hears of it again only when it returns.
  const bool was_spare = health_[node] == NodeHealth::Spare;
  if (was_spare)
    --in_pool_[static_cast<std::size_t>(core_.topology.pod_of(node))];
  set_health(node, NodeHealth::Down, &cause);
  if (!was_spare)
    core_.inbox.post_node(EventKind::NodeDown, node);
}

void NodeService::bring_back(NodeId node)
{
  const auto pod = static_cast<std::size_t>(core_.topology.pod_of(node));
  if (in_pool_[pod] < wanted_[pod]) {
    // A repaired node refills the spare pool before it returns to scheduling.
    ++in_pool_[pod];
    set_health(node, NodeHealth::Spare, nullptr);
    return;
  }
  set_health(node, NodeHealth::InService, nullptr);
  core_.holders.set_in_service(node, true);
  core_.inbox.post_node(EventKind::NodeUp, node);
}

std::vector<NodeId> NodeService::spares(int pod, int count) const
{
  std::vector<NodeId> chosen;
  const NodeId first = core_.topology.first_node_of_pod(pod);
  const auto end = first + static_cast<NodeId>(core_.topology.spec().pods.at(static_cast<std::size_t>(pod)).nodes);
  for (NodeId node = first; node < end && static_cast<int>(chosen.size()) < count; ++node)
    if (health_[node] == NodeHealth::Spare)
      chosen.push_back(node);
  return chosen;
}

void NodeService::put_spare_in_service(NodeId node)
{
  --in_pool_[static_cast<std::size_t>(core_.topology.pod_of(node))];
  set_health(node, NodeHealth::InService, nullptr);
  core_.holders.set_in_service(node, true);
  core_.inbox.post_node(EventKind::NodeUp, node);
}

} // namespace acmesim
