#pragma once
// The cluster as a graph (Boost.Graph): GPU nodes, leaf switches, spine switches, the core planes
// of three-tier pods and the storage service are vertices; cables are edges carrying their bandwidth. Placement reads
// locality (leaf of a node, hop distance) from it and the simulation layer builds the SimGrid
// platform by walking its vertices and edges. No SimGrid here.
#include "models/cluster/ClusterSpec.hpp"

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace acmesim {

using NodeId = std::uint32_t; // dense, 0..node_count()-1, pod by pod
using LeafId = std::uint32_t; // dense over the whole cluster

// In the order of the tiers, upward (the platform builder orders a cable's ends by it).
enum class VertexKind : std::uint8_t { Node, Leaf, Spine, Core, Storage };

struct TopologyVertex {
  VertexKind kind = VertexKind::Node;
  std::string name; // unique, used as SimGrid host/router name: "seren-n0", "seren-leaf3", "storage"
  int pod = -1;     // -1 for the storage service
  std::uint32_t index = 0; // NodeId, LeafId, spine index within its pod
};

struct TopologyEdge {
  double bandwidth_Bps = 0; // bytes per second, each way
  double latency_s = 0;
  std::string name;         // unique link name
};

using TopologyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, TopologyVertex, TopologyEdge>;

class Topology {
public:
  explicit Topology(const ClusterSpec& spec);

  const ClusterSpec& spec() const { return spec_; }
  const TopologyGraph& graph() const { return graph_; }

  std::size_t node_count() const { return node_vertex_.size(); }
  std::size_t leaf_count() const { return leaf_vertex_.size(); }
  std::size_t spine_count() const { return spine_count_; }
  std::size_t pod_count() const { return spec_.pods.size(); }
  int total_gpus() const { return total_gpus_; }
  std::int64_t total_cpus() const { return total_cpus_; } // cores of every node

  int gpus_of(NodeId node) const { return spec_.pods[pod_of_node_[node]].gpus_per_node; }
  int pod_of(NodeId node) const { return pod_of_node_[node]; }
  LeafId leaf_of(NodeId node) const { return leaf_of_node_[node]; }
  int pod_of_leaf(LeafId leaf) const { return pod_of_leaf_[leaf]; }
  const std::vector<NodeId>& nodes_of_leaf(LeafId leaf) const { return nodes_of_leaf_[leaf]; }
  const std::vector<LeafId>& leaves_of_pod(int pod) const { return leaves_of_pod_[pod]; }
  const std::string& node_name(NodeId node) const { return graph_[node_vertex_[node]].name; }
  // The NVLink domain a node's GPUs belong to, dense over the cluster: a node's own where NVLink
  // stops at the node (PodSpec::nvlink_domain_nodes).
  std::uint32_t nvlink_domain_of(NodeId node) const { return domain_of_node_[node]; }

  TopologyGraph::vertex_descriptor node_vertex(NodeId node) const { return node_vertex_[node]; }
  TopologyGraph::vertex_descriptor leaf_vertex(LeafId leaf) const { return leaf_vertex_[leaf]; }
  TopologyGraph::vertex_descriptor storage_vertex() const { return storage_vertex_; }
  // Spine switches of one pod, by spine index (block by block in a three-tier pod).
  const std::vector<TopologyGraph::vertex_descriptor>& spine_vertices(int pod) const { return spines_of_pod_[pod]; }
  // Core planes of one pod, by plane (none unless its fabric has three tiers): plane k joins spine k
  // of every block.
  const std::vector<TopologyGraph::vertex_descriptor>& core_vertices(int pod) const { return cores_of_pod_[pod]; }
  // Nodes of a pod are NodeIds first_node_of_pod(p) .. first_node_of_pod(p) + spec().pods[p].nodes - 1.
  NodeId first_node_of_pod(int pod) const { return first_node_of_pod_[pod]; }

  // Switch-to-switch and node-to-switch cables on the shortest path between two nodes over
  // the compute fabric (0 same node, 2 same leaf, 4 across spines, 6 across blocks); -1 when no compute path
  // exists (nodes in different pods). Computed by breadth-first search on the graph, never through the
  // storage vertex; the search from each source node is cached on first use, so this is not thread-safe.
  int hop_distance(NodeId a, NodeId b) const;

private:
  ClusterSpec spec_;
  TopologyGraph graph_;
  std::vector<TopologyGraph::vertex_descriptor> node_vertex_;
  std::vector<TopologyGraph::vertex_descriptor> leaf_vertex_;
  TopologyGraph::vertex_descriptor storage_vertex_{};
  std::size_t spine_count_ = 0;
  int total_gpus_ = 0;
  std::int64_t total_cpus_ = 0;
  std::vector<int> pod_of_node_;
  std::vector<LeafId> leaf_of_node_;
  std::vector<std::uint32_t> domain_of_node_;
  std::vector<int> pod_of_leaf_;
  std::vector<std::vector<NodeId>> nodes_of_leaf_;
  std::vector<std::vector<LeafId>> leaves_of_pod_;
  std::vector<std::vector<TopologyGraph::vertex_descriptor>> spines_of_pod_;
  std::vector<std::vector<TopologyGraph::vertex_descriptor>> cores_of_pod_;
  std::vector<NodeId> first_node_of_pod_;
  mutable std::vector<std::vector<int>> hop_cache_; // [source NodeId][NodeId], filled lazily
};

} // namespace acmesim
