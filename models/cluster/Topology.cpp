#include "models/cluster/Topology.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"

#include <deque>
#include <set>
#include <sstream>
#include <stdexcept>

namespace acmesim {

namespace {

constexpr double kGbpsToBytesPerSecond = 1e9 / 8;

// Reports every problem of the spec at once, so a user fixes a scenario in one pass.
void validate(const ClusterSpec& spec)
{
  DiagnosticList problems;
  auto report = [&problems](const std::string& key, const std::string& value, const std::string& message) {
    problems.add("cluster", key, value, message);
  };
  if (spec.pods.empty())
    report("cluster.pods", "", "a cluster needs at least one pod");
  if (!(spec.storage.bandwidth_GBps > 0))
    report("cluster.storage.bandwidth_GBps", format_number(spec.storage.bandwidth_GBps), "must be > 0");
  if (!(spec.storage.latency_us >= 0))
    report("cluster.storage.latency_us", format_number(spec.storage.latency_us), "must be >= 0");

  std::set<std::string> names;
  for (std::size_t p = 0; p < spec.pods.size(); ++p) {
    const PodSpec& pod = spec.pods[p];
    const std::string prefix = "cluster.pods." + std::to_string(p) + ".";
    const FabricSpec& fabric = pod.fabric;
    // Pod names prefix every switch, node and link name of the platform: they must tell pods apart.
    if (pod.name.empty())
      report(prefix + "name", "", "a pod needs a name");
    else if (!names.insert(pod.name).second)
      report(prefix + "name", pod.name, "another pod already has this name");
    bool shape_ok = true; // whether the leaf and spine counts below can be computed
    auto require = [&](bool ok, const std::string& key, const std::string& value, const std::string& message) {
      if (!ok) {
        report(prefix + key, value, message);
        shape_ok = false;
      }
    };
    require(pod.nodes >= 1, "nodes", std::to_string(pod.nodes), "a pod needs at least 1 node");
    require(pod.gpus_per_node >= 1, "gpus_per_node", std::to_string(pod.gpus_per_node), "must be >= 1");
    require(pod.compute_nics >= 1, "compute_nics", std::to_string(pod.compute_nics),
            "a node needs at least 1 compute NIC to join the fabric");
    require(pod.storage_nics >= 0, "storage_nics", std::to_string(pod.storage_nics), "must be >= 0");
    require(pod.nic_bandwidth_Gbps > 0, "nic_bandwidth_Gbps", format_number(pod.nic_bandwidth_Gbps), "must be > 0");
    require(fabric.port_bandwidth_Gbps > 0, "fabric.port_bandwidth_Gbps", format_number(fabric.port_bandwidth_Gbps),
            "must be > 0");
    require(fabric.link_latency_us >= 0, "fabric.link_latency_us", format_number(fabric.link_latency_us),
            "must be >= 0");
    require(fabric.oversubscription > 0, "fabric.oversubscription", format_number(fabric.oversubscription),
            "must be > 0 (downlink ports per uplink port of a leaf)");
    require(pod.nvlink_domain_nodes >= 1, "nvlink_domain_nodes", std::to_string(pod.nvlink_domain_nodes),
            "must be >= 1 (1: NVLink stops at the node)");
    require(fabric.nodes_per_block >= 0, "fabric.nodes_per_block", std::to_string(fabric.nodes_per_block),
            "must be >= 0 (0: two tiers)");
    require(fabric.core_oversubscription > 0, "fabric.core_oversubscription",
            format_number(fabric.core_oversubscription), "must be > 0 (a spine's leaf ports per core port)");
    require(fabric.nodes_per_leaf >= 0, "fabric.nodes_per_leaf", std::to_string(fabric.nodes_per_leaf),
            "must be >= 0 (0 derives it from the leaf radix)");
    // Pooled uplinks spread traffic as a fluid: flows toward a peer would change nothing.
    if (fabric.core_oversubscription != 1.0 && fabric.nodes_per_block == 0)
      report(prefix + "fabric.core_oversubscription", format_number(fabric.core_oversubscription),
             "applies between the blocks of a three-tier fabric: set fabric.nodes_per_block");
    if (fabric.rails != 0 && fabric.wiring != FabricWiring::Rail)
      report(prefix + "fabric.rails", std::to_string(fabric.rails), "applies to wiring: rail only");
    else if (fabric.rails != 0 && fabric.rails != pod.compute_nics)
      report(prefix + "fabric.rails", std::to_string(fabric.rails),
             "rail wiring takes one rail per compute NIC, and this pod's nodes have " +
                 std::to_string(pod.compute_nics) + ": rails must be " + std::to_string(pod.compute_nics) +
                 " (or 0)");
    if (fabric.flows_per_nic != 1 && fabric.routing != FabricRouting::Ecmp)
      report(prefix + "fabric.flows_per_nic", std::to_string(fabric.flows_per_nic),
             "flows are hashed onto uplinks under routing: ecmp only, and this pod's routing is pooled");
    if (!shape_ok)
      continue;
    const int nics_on_switch = nics_per_leaf_switch(pod);
    if (fabric.leaf_radix < nics_on_switch + 1) {
      report(prefix + "fabric.leaf_radix", std::to_string(fabric.leaf_radix),
             "a leaf switch needs a port per compute NIC of one node (" + std::to_string(nics_on_switch) +
                 ") plus one uplink: leaf_radix must be >= " + std::to_string(nics_on_switch + 1));
      continue;
    }
    const int nodes_per_leaf = derived_nodes_per_leaf(pod);
    if (nodes_per_leaf * nics_on_switch > fabric.leaf_radix - 1) {
      const bool given = fabric.nodes_per_leaf > 0;
      report(prefix + (given ? "fabric.nodes_per_leaf" : "fabric.oversubscription"),
             given ? std::to_string(fabric.nodes_per_leaf) : format_number(fabric.oversubscription),
             std::to_string(nodes_per_leaf) + " nodes of " + std::to_string(nics_on_switch) +
                 " NICs a switch leave no uplink on a " + std::to_string(fabric.leaf_radix) +
                 "-port leaf: at most " + std::to_string((fabric.leaf_radix - 1) / nics_on_switch) + " nodes per leaf");
      continue;
    }
    // Placement packs a domain under one leaf and a ring leaves it over its nodes' NICs together:
    // a domain split between leaves would be neither.
    if (pod.nvlink_domain_nodes > 1 && nodes_per_leaf % pod.nvlink_domain_nodes != 0) {
      report(prefix + "nvlink_domain_nodes", std::to_string(pod.nvlink_domain_nodes),
             "an NVLink domain must not straddle two leaves: the " + std::to_string(nodes_per_leaf) +
                 " nodes of a leaf must be a multiple of it (set fabric.nodes_per_leaf)");
      continue;
    }
    if (fabric.nodes_per_block > 0 && fabric.nodes_per_block % nodes_per_leaf != 0) {
      report(prefix + "fabric.nodes_per_block", std::to_string(fabric.nodes_per_block),
             "a block holds whole leaves: a multiple of the " + std::to_string(nodes_per_leaf) + " nodes of a leaf");
      continue;
    }
    const bool three_tiers = derived_blocks(pod) > 1;
    if (three_tiers && pod.storage_nics == 0) {
      report(prefix + "fabric.nodes_per_block", std::to_string(fabric.nodes_per_block),
             "a three-tier fabric needs storage NICs (storage_nics >= 1): storage traffic through the core "
             "tier is not modelled");
      continue;
    }
    const int leaves = leaves_per_block(pod);
    const int needed = spine_ports_needed(pod);
    if (needed > derived_spine_radix(pod)) {
      // Every spine has a cable to every leaf of its block: the radix bounds the leaves of a block.
      std::string message = three_tiers ? "each block of pod '" + pod.name + "' has " + std::to_string(leaves) +
                                              " leaf switches (" + std::to_string(nodes_per_leaf) +
                                              " nodes each) and " + std::to_string(core_ports_per_spine(pod)) +
                                              " ports a spine toward the core"
                                        : "pod '" + pod.name + "' has " + std::to_string(leaves) + " leaf switches (" +
                                              std::to_string(nodes_per_leaf) + " nodes each)";
      if (pod.storage_nics == 0)
        message += " and storage on the spines";
      message += ": its spines need at least " + std::to_string(needed) + " ports, so spine_radix >= " +
                 std::to_string(needed);
      if (!three_tiers)
        message += ", or three tiers: fabric.nodes_per_block of at most " +
                   std::to_string((derived_spine_radix(pod) - (pod.storage_nics == 0 ? 1 : 0)) / 2 * nodes_per_leaf) +
                   " nodes with a non-blocking core";
      report(prefix + "fabric.spine_radix", std::to_string(fabric.spine_radix), message);
    }
  }
  problems.throw_if_any();
}

} // namespace

Topology::Topology(const ClusterSpec& spec) : spec_(spec)
{
  validate(spec_);
  storage_vertex_ = boost::add_vertex(TopologyVertex{VertexKind::Storage, "storage", -1, 0}, graph_);

  for (std::size_t p = 0; p < spec_.pods.size(); ++p) {
    const PodSpec& pod = spec_.pods[p];
    const int pod_index = static_cast<int>(p);
    const int nodes_per_leaf = derived_nodes_per_leaf(pod);
    const int spines_per_block = derived_uplinks_per_leaf(pod);
    const int blocks = derived_blocks(pod);
    const int block_leaves = leaves_per_block(pod);
    const int spines = spines_per_block * blocks;
    const int leaves = derived_leaves(pod);
    const double latency_s = pod.fabric.link_latency_us * 1e-6;
    const double node_bandwidth = compute_cable_Bps(pod);
    const double port_bandwidth = pod.fabric.port_bandwidth_Gbps * kGbpsToBytesPerSecond;
    const double storage_bandwidth = storage_cable_Bps(pod);

    const auto first_leaf = static_cast<LeafId>(leaf_vertex_.size());
    leaves_of_pod_.emplace_back();
    for (int j = 0; j < leaves; ++j) {
      const LeafId leaf = first_leaf + static_cast<LeafId>(j);
      leaf_vertex_.push_back(boost::add_vertex(
          TopologyVertex{VertexKind::Leaf, pod.name + "-leaf" + std::to_string(j), pod_index, leaf}, graph_));
      pod_of_leaf_.push_back(pod_index);
      nodes_of_leaf_.emplace_back();
      leaves_of_pod_.back().push_back(leaf);
    }

    auto& spine_vertices = spines_of_pod_.emplace_back();
    for (int k = 0; k < spines; ++k)
      spine_vertices.push_back(boost::add_vertex(TopologyVertex{VertexKind::Spine,
                                                                pod.name + "-spine" + std::to_string(k), pod_index,
                                                                static_cast<std::uint32_t>(k)},
                                                 graph_));
    spine_count_ += spine_vertices.size();

    // Folded Clos: every leaf has one cable to every spine of its block.
    for (int j = 0; j < leaves; ++j)
      for (int k = j / block_leaves * spines_per_block, last = k + spines_per_block; k < last; ++k)
        boost::add_edge(leaf_vertex_[first_leaf + static_cast<LeafId>(j)], spine_vertices[k],
                        TopologyEdge{port_bandwidth, latency_s,
                                     pod.name + "-leaf" + std::to_string(j) + "-spine" + std::to_string(k)},
                        graph_);
    // Three tiers: spine k of every block to core plane k, its core ports as one cable.
    auto& core_vertices = cores_of_pod_.emplace_back();
    if (blocks > 1) {
      for (int k = 0; k < spines_per_block; ++k)
        core_vertices.push_back(boost::add_vertex(TopologyVertex{VertexKind::Core,
                                                                 pod.name + "-core" + std::to_string(k), pod_index,
                                                                 static_cast<std::uint32_t>(k)},
                                                  graph_));
      const double core_bandwidth = core_ports_per_spine(pod) * port_bandwidth;
      for (int j = 0; j < spines; ++j)
        boost::add_edge(spine_vertices[j], core_vertices[j % spines_per_block],
                        TopologyEdge{core_bandwidth, latency_s,
                                     pod.name + "-spine" + std::to_string(j) + "-core" +
                                         std::to_string(j % spines_per_block)},
                        graph_);
    }

    first_node_of_pod_.push_back(static_cast<NodeId>(node_vertex_.size()));
    const std::uint32_t first_domain = domain_of_node_.empty() ? 0 : domain_of_node_.back() + 1;
    for (int i = 0; i < pod.nodes; ++i) {
      const auto node = static_cast<NodeId>(node_vertex_.size());
      const int local_leaf = i / nodes_per_leaf;
      const LeafId leaf = first_leaf + static_cast<LeafId>(local_leaf);
      const std::string name = pod.name + "-n" + std::to_string(i);
      const auto v = boost::add_vertex(TopologyVertex{VertexKind::Node, name, pod_index, node}, graph_);
      node_vertex_.push_back(v);
      pod_of_node_.push_back(pod_index);
      leaf_of_node_.push_back(leaf);
      domain_of_node_.push_back(first_domain + static_cast<std::uint32_t>(i / pod.nvlink_domain_nodes));
      nodes_of_leaf_[leaf].push_back(node);
      // All compute NICs of a node land on the same leaf: one cable of their summed bandwidth.
      boost::add_edge(v, leaf_vertex_[leaf],
                      TopologyEdge{node_bandwidth, latency_s, name + "-leaf" + std::to_string(local_leaf)}, graph_);
      if (pod.storage_nics > 0)
        boost::add_edge(v, storage_vertex_, TopologyEdge{storage_bandwidth, latency_s, name + "-storage"}, graph_);
    }
    // Without storage NICs, storage traffic leaves through the compute NIC and the spines.
    if (pod.storage_nics == 0)
      for (int k = 0; k < spines; ++k)
        boost::add_edge(spine_vertices[k], storage_vertex_,
                        TopologyEdge{port_bandwidth, latency_s, pod.name + "-spine" + std::to_string(k) + "-storage"},
                        graph_);
    total_gpus_ += pod.nodes * pod.gpus_per_node;
    total_cpus_ += static_cast<std::int64_t>(pod.nodes) * pod.cpus_per_node;
  }
  hop_cache_.resize(node_vertex_.size());
}

int Topology::hop_distance(NodeId a, NodeId b) const
{
  if (a >= node_count() || b >= node_count())
    throw std::out_of_range("Topology::hop_distance: node " + std::to_string(a >= node_count() ? a : b) +
                            " out of range (" + std::to_string(node_count()) + " nodes)");
  if (a == b)
    return 0;
  if (hop_cache_[b].size() == node_count()) // distances are symmetric: reuse a search from b
    return hop_cache_[b][a];
  auto& row = hop_cache_[a];
  if (row.empty()) {
    std::vector<int> distance(boost::num_vertices(graph_), -1);
    std::deque<TopologyGraph::vertex_descriptor> frontier{node_vertex_[a]};
    distance[node_vertex_[a]] = 0;
    while (!frontier.empty()) {
      const auto v = frontier.front();
      frontier.pop_front();
      for (auto [it, end] = boost::adjacent_vertices(v, graph_); it != end; ++it) {
        // The storage service is not a compute path: pods only meet there.
        if (distance[*it] >= 0 || graph_[*it].kind == VertexKind::Storage)
          continue;
        distance[*it] = distance[v] + 1;
        frontier.push_back(*it);
      }
    }
    row.resize(node_count());
    for (std::size_t n = 0; n < node_count(); ++n)
      row[n] = distance[node_vertex_[n]];
  }
  return row[b];
}

} // namespace acmesim
