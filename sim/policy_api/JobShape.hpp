#pragma once
// How a GPU request maps onto nodes: a job of at most one node's GPUs sits inside one node;
// a larger job takes whole nodes (ceil(gpus / gpus_per_node) of them), as on Acme where
// multi-node jobs get full 8-GPU servers.
#include "models/cluster/Topology.hpp"
#include "models/workload/Job.hpp"

#include <string>
#include <vector>

namespace acmesim {

struct JobShape {
  int nodes = 0;          // nodes the job occupies
  int gpus_per_node = 0;  // GPUs taken on each of them (whole node for multi-node jobs)
  bool whole_nodes = false;

  int gpus_held() const { return nodes * gpus_per_node; }
};

// Shape of a request of `gpus` (> 0) on nodes of `node_gpus` GPUs.
JobShape job_shape(int gpus, int node_gpus);

// The GPUs a running job holds: which nodes and how many GPUs on each.
struct Allocation {
  struct Part {
    NodeId node = 0;
    int gpus = 0;
  };
  std::vector<Part> parts; // sorted by node id

  int gpus_held() const;
  int node_count() const { return static_cast<int>(parts.size()); }
  bool empty() const { return parts.empty(); }
};

// What is wrong with `allocation` for `job` ("" if nothing): anything but the job's shape on
// distinct nodes of one pod (its own, if it is bound to one), in increasing order. Whether the
// GPUs are free is another question (the cluster state's).
std::string allocation_problem(const Topology& topology, const Job& job, const Allocation& allocation);

} // namespace acmesim
