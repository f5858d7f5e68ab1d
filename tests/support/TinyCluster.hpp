#pragma once
// Small hand-built clusters and jobs for tests whose answers are worked out by hand.
#include "models/cluster/ClusterSpec.hpp"
#include "models/workload/Job.hpp"

#include <string>

namespace acmesim::testing {

// One pod of `nodes` nodes, `nodes_per_leaf` per leaf switch.
inline ClusterSpec tiny_cluster(int nodes, int nodes_per_leaf, int gpus_per_node = 8)
{
  PodSpec pod;
  pod.name = "tiny";
  pod.nodes = nodes;
  pod.gpus_per_node = gpus_per_node;
  pod.fabric.nodes_per_leaf = nodes_per_leaf;
  ClusterSpec spec;
  spec.name = "tiny";
  spec.pods.push_back(pod);
  return spec;
}

inline Job make_job(JobId id, double submit_s, int gpus, double duration_s, JobType type = JobType::Other)
{
  Job job;
  job.id = id;
  job.name = "j" + std::to_string(id);
  job.user = "u";
  job.type = type;
  job.gpus = gpus;
  job.submit_s = submit_s;
  job.duration_s = duration_s;
  return job;
}

} // namespace acmesim::testing

namespace acmesim::testing {

// Two pods of different node sizes: "small" with 2 nodes of 8 GPUs (node ids 0-1) and
// "big" with 3 nodes of 16 GPUs (node ids 2-4), one node per leaf switch.
inline ClusterSpec two_pod_cluster()
{
  ClusterSpec spec = tiny_cluster(2, 1, 8);
  spec.pods[0].name = "small";
  PodSpec big = spec.pods[0];
  big.name = "big";
  big.nodes = 3;
  big.gpus_per_node = 16;
  spec.pods.push_back(big);
  spec.name = "two-pods";
  return spec;
}

} // namespace acmesim::testing
