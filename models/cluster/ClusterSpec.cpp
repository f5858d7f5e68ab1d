#include "models/cluster/ClusterSpec.hpp"

#include <algorithm>
#include <cmath>

namespace acmesim {

int ClusterSpec::total_nodes() const
{
  int total = 0;
  for (const auto& pod : pods)
    total += pod.nodes;
  return total;
}

int ClusterSpec::total_gpus() const
{
  int total = 0;
  for (const auto& pod : pods)
    total += pod.nodes * pod.gpus_per_node;
  return total;
}

int derived_nodes_per_leaf(const PodSpec& pod)
{
  const FabricSpec& fabric = pod.fabric;
  if (fabric.nodes_per_leaf > 0)
    return fabric.nodes_per_leaf;
  // A leaf with oversubscription o splits its radix as o downlinks for each uplink. The epsilon keeps ratios
  // that are exact in decimal (e.g. 40 * 1.5 / 2.5 = 24) from rounding down to the port below.
  const double o = std::max(fabric.oversubscription, 0.0);
  const int downlinks = static_cast<int>(std::floor(fabric.leaf_radix * o / (1.0 + o) + 1e-9));
  return std::max(1, downlinks / nics_per_leaf_switch(pod));
}

int nics_per_leaf_switch(const PodSpec& pod)
{
  // Invalid NIC counts are reported by the Topology; here they must only not divide by zero.
  return pod.fabric.wiring == FabricWiring::Rail ? 1 : std::max(1, pod.compute_nics);
}

int switches_per_leaf(const PodSpec& pod)
{
  return pod.fabric.wiring == FabricWiring::Rail ? std::max(1, pod.compute_nics) : 1;
}

double compute_cable_Bps(const PodSpec& pod) { return pod.compute_nics * pod.nic_bandwidth_Gbps * 1e9 / 8; }

double storage_cable_Bps(const PodSpec& pod) { return pod.storage_nics * storage_nic_Gbps(pod) * 1e9 / 8; }

double uncontended_storage_Bps(const PodSpec& pod, const StorageSpec& storage, int nodes, LoneFlowShares shares)
{
  const double node_Bps = pod.storage_nics > 0 ? storage_cable_Bps(pod) : compute_cable_Bps(pod);
  return std::min(nodes * node_Bps * shares.cable, storage.bandwidth_GBps * 1e9 * shares.service);
}

int derived_blocks(const PodSpec& pod)
{
  const int per_block = pod.fabric.nodes_per_block;
  return per_block > 0 ? std::max(1, (pod.nodes + per_block - 1) / per_block) : 1;
}

int leaves_per_block(const PodSpec& pod)
{
  return derived_blocks(pod) > 1 ? pod.fabric.nodes_per_block / derived_nodes_per_leaf(pod) : derived_leaves(pod);
}

int core_ports_per_spine(const PodSpec& pod)
{
  if (derived_blocks(pod) == 1)
    return 0;
  // The epsilon keeps ratios exact in decimal from rounding up to the port above.
  const double o = std::max(pod.fabric.core_oversubscription, 1e-9);
  return std::max(1, static_cast<int>(std::ceil(leaves_per_block(pod) / o - 1e-9)));
}

int spine_ports_needed(const PodSpec& pod)
{
  return leaves_per_block(pod) + core_ports_per_spine(pod) + (pod.storage_nics == 0 ? 1 : 0);
}

int derived_leaves(const PodSpec& pod)
{
  const int per_leaf = derived_nodes_per_leaf(pod);
  return (pod.nodes + per_leaf - 1) / per_leaf;
}

int derived_spine_radix(const PodSpec& pod)
{
  if (pod.fabric.spine_radix > 0)
    return pod.fabric.spine_radix;
  return std::max(DEFAULT_SPINE_RADIX, spine_ports_needed(pod));
}

int derived_uplinks_per_leaf(const PodSpec& pod)
{
  const int per_switch = std::max(1, pod.fabric.leaf_radix - derived_nodes_per_leaf(pod) * nics_per_leaf_switch(pod));
  return switches_per_leaf(pod) * per_switch;
}

int flows_per_peer(const PodSpec& pod)
{
  return pod.fabric.routing == FabricRouting::Ecmp ? pod.compute_nics * pod.fabric.flows_per_nic : 1;
}

} // namespace acmesim
