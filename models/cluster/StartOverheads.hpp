#pragma once
// The platform's start overhead of each job (PodSpec::start_overhead_s): how long after its
// submission a job becomes visible to the scheduler, drawn once per job from its pod's table.
#include "models/cluster/ClusterSpec.hpp"
#include "models/workload/Job.hpp"

#include <cstdint>
#include <vector>

namespace acmesim {

// By job id. A job bound to a pod draws from that pod's table; an unbound job from the table all
// pods share, and none if they differ (its pod is not known before it starts). Empty when no pod
// has an overhead. Draws come from their own stream of the seed, in job order.
std::vector<double> draw_start_overheads(const ClusterSpec& cluster, const Workload& workload, std::uint64_t seed);

} // namespace acmesim
