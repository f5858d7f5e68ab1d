#include "sim/policy_api/JobShape.hpp"

#include <string>

namespace acmesim {

JobShape job_shape(int gpus, int node_gpus)
{
  if (gpus <= node_gpus)
    return {1, gpus, false};
  return {(gpus + node_gpus - 1) / node_gpus, node_gpus, true};
}

std::string allocation_problem(const Topology& topology, const Job& job, const Allocation& allocation)
{
  if (allocation.empty())
    return "with no nodes";
  const NodeId first = allocation.parts.front().node;
  if (first >= topology.node_count())
    return "on node " + std::to_string(first) + ", which does not exist";
  if (job.pod != ANY_POD && topology.pod_of(first) != job.pod)
    return "outside pod " + topology.spec().pods.at(static_cast<std::size_t>(job.pod)).name + ", which it is bound to";
  const JobShape shape = job_shape(job.gpus, topology.gpus_of(first));
  if (allocation.node_count() != shape.nodes)
    return "of " + std::to_string(allocation.node_count()) + " nodes instead of " + std::to_string(shape.nodes);
  for (std::size_t i = 0; i < allocation.parts.size(); ++i) {
    const auto& part = allocation.parts[i];
    if (part.node >= topology.node_count() || topology.pod_of(part.node) != topology.pod_of(first))
      return "spanning pods";
    if (part.gpus != shape.gpus_per_node)
      return "of " + std::to_string(part.gpus) + " GPUs on a node instead of " + std::to_string(shape.gpus_per_node);
    if (i > 0 && part.node <= allocation.parts[i - 1].node)
      return "with nodes repeated or out of order";
  }
  return "";
}

int Allocation::gpus_held() const
{
  int total = 0;
  for (const auto& p : parts)
    total += p.gpus;
  return total;
}

} // namespace acmesim
