#include "models/failure/FailureRates.hpp"

#include "models/failure/FailureModel.hpp"

#include <algorithm>

namespace acmesim {

double recorded_node_failure_rate(const std::vector<FailureEvent>& failures, std::size_t node_count)
{
  if (failures.empty() || node_count == 0)
    return 0;
  double node_failures = 0;
  for (const auto& e : failures)
    node_failures += e.component == Component::LeafSwitch || e.component == Component::Storage ? 0 : 1;
  const double span = std::max(1.0, failures.back().time_s);
  return node_failures / (static_cast<double>(node_count) * span);
}

JobFailureRate job_failure_rate(const FailureSpec& spec, const std::vector<FailureEvent>& recorded,
                                const Topology& topology)
{
  if (spec.source == FailureSpec::Source::Model)
    return [&spec, &topology](int pod, int nodes) { return expected_job_failure_rate(spec, topology, pod, nodes); };
  if (spec.source != FailureSpec::Source::Recorded || recorded.empty())
    return {};
  const double per_node_second = recorded_node_failure_rate(recorded, topology.node_count());
  return [per_node_second](int, int nodes) { return per_node_second * nodes; };
}

} // namespace acmesim
