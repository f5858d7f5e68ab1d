#include "sim/policy_api/ClusterState.hpp"

#include <stdexcept>
#include <string>

namespace acmesim {

CapacityProfile::CapacityProfile(const Topology& topology) : topology_(&topology)
{
  const auto n = topology.node_count();
  free_.resize(n);
  held_.assign(n, 0);
  in_service_.assign(n, true);
  histogram_.resize(topology.pod_count());
  for (std::size_t pod = 0; pod < topology.pod_count(); ++pod)
    histogram_[pod].assign(static_cast<std::size_t>(topology.spec().pods[pod].gpus_per_node) + 1, 0);
  for (NodeId node = 0; node < n; ++node) {
    free_[node] = topology.gpus_of(node);
    histogram_[topology.pod_of(node)][free_[node]]++;
    free_total_ += free_[node];
  }
}

bool CapacityProfile::fits(int gpus) const
{
  for (std::size_t pod = 0; pod < histogram_.size(); ++pod) {
    const auto& hist = histogram_[pod];
    const int node_gpus = static_cast<int>(hist.size()) - 1;
    const JobShape shape = job_shape(gpus, node_gpus);
    if (shape.whole_nodes) {
      if (hist[node_gpus] >= shape.nodes)
        return true;
      continue;
    }
    for (int f = gpus; f <= node_gpus; ++f)
      if (hist[f] > 0)
        return true;
  }
  return false;
}

void CapacityProfile::take(const Allocation& allocation)
{
  for (const auto& part : allocation.parts) {
    const int old_free = free_[part.node];
    if (part.gpus <= 0 || part.gpus > old_free)
      throw std::logic_error("allocation of " + std::to_string(part.gpus) + " GPUs on node " +
                             std::to_string(part.node) + " with " + std::to_string(old_free) + " free");
    held_[part.node] += part.gpus;
    on_change(part.node, old_free, old_free - part.gpus);
  }
}

void CapacityProfile::give_back(const Allocation& allocation)
{
  for (const auto& part : allocation.parts) {
    const int old_free = free_[part.node];
    if (part.gpus <= 0 || part.gpus > held_[part.node])
      throw std::logic_error("release of " + std::to_string(part.gpus) + " GPUs on node " + std::to_string(part.node) +
                             " holding " + std::to_string(held_[part.node]));
    held_[part.node] -= part.gpus;
    if (in_service_[part.node])
      on_change(part.node, old_free, old_free + part.gpus);
  }
}

void CapacityProfile::set_in_service(NodeId node, bool in_service)
{
  if (in_service_[node] == in_service)
    return;
  in_service_[node] = in_service;
  const int old_free = free_[node];
  on_change(node, old_free, in_service ? topology_->gpus_of(node) - held_[node] : 0);
}

void CapacityProfile::on_change(NodeId node, int old_free, int new_free)
{
  auto& hist = histogram_[topology_->pod_of(node)];
  hist[old_free]--;
  hist[new_free]++;
  free_[node] = new_free;
  free_total_ += new_free - old_free;
}

ClusterState::ClusterState(const Topology& topology) : CapacityProfile(topology)
{
  by_free_.resize(topology.pod_count());
  for (std::size_t pod = 0; pod < topology.pod_count(); ++pod) {
    const PodSpec& spec = topology.spec().pods[pod];
    by_free_[pod].assign(static_cast<std::size_t>(spec.gpus_per_node) + 1,
                         NodeSet(topology.first_node_of_pod(static_cast<int>(pod)), static_cast<std::size_t>(spec.nodes)));
  }
  leaf_free_nodes_.assign(topology.leaf_count(), 0);
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    by_free_[topology.pod_of(node)][free_[node]].insert(node);
    leaf_free_nodes_[topology.leaf_of(node)]++;
  }
}

void ClusterState::on_change(NodeId node, int old_free, int new_free)
{
  CapacityProfile::on_change(node, old_free, new_free);
  auto& buckets = by_free_[topology_->pod_of(node)];
  buckets[old_free].erase(node);
  buckets[new_free].insert(node);
  const int node_gpus = topology_->gpus_of(node);
  if (old_free == node_gpus)
    leaf_free_nodes_[topology_->leaf_of(node)]--;
  if (new_free == node_gpus)
    leaf_free_nodes_[topology_->leaf_of(node)]++;
}

} // namespace acmesim
