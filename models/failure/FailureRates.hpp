#pragma once
// How often a job of n nodes is expected to be interrupted, as Young's and Daly's checkpoint
// intervals need it: from the failure model, or from a recorded failure list.
#include "models/cluster/Topology.hpp"
#include "models/failure/FailureEvent.hpp"
#include "models/failure/FailureSpec.hpp"

#include <functional>
#include <vector>

namespace acmesim {

// Expected failures per second interrupting a job of `nodes` nodes in pod `pod`.
using JobFailureRate = std::function<double(int pod, int nodes)>;

// Node-level failures (every component but leaf switches and storage) per node and second of a
// recorded list, over its span (at least a second); 0 for an empty list.
double recorded_node_failure_rate(const std::vector<FailureEvent>& failures, std::size_t node_count);

// The rate for the scenario's failure source: the model's expectation, a recorded list's node
// rate times the job's nodes, or none (empty function) without failures.
JobFailureRate job_failure_rate(const FailureSpec& spec, const std::vector<FailureEvent>& recorded,
                                const Topology& topology);

} // namespace acmesim
