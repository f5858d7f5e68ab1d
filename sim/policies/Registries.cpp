#include "sim/policies/Registries.hpp"

#include "models/common/Random.hpp"
#include "sim/policies/PodPartition.hpp"

#include <cmath>
#include <string>

namespace acmesim {

double PolicyParams::number(std::string_view name) const
{
  const auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("a policy asked for parameter '" + std::string(name) + "', which it did not declare");
  return it->second;
}

int PolicyParams::integer(std::string_view name) const { return static_cast<int>(std::lround(number(name))); }

// Function-local statics: registrations run during static initialisation, in any order.
SchedulerRegistry& scheduler_registry()
{
  static SchedulerRegistry registry;
  return registry;
}

PlacementRegistry& placement_registry()
{
  static PlacementRegistry registry;
  return registry;
}

RecoveryRegistry& recovery_registry()
{
  static RecoveryRegistry registry;
  return registry;
}

std::unique_ptr<Scheduler> make_scheduler(const SchedulerSpec& spec, const Topology& topology, std::uint64_t seed)
{
  if (spec.pods == PodScheduling::Shared)
    return scheduler_registry().make(spec.name, spec.params, topology,
                                     placement_registry().make(spec.placement, {}, seed));
  // Each pod's placement draws from a stream of its own, so a pod's runs do not depend on the
  // other pods.
  return std::make_unique<PodPartitionedScheduler>(topology, [&](int pod, const Topology& pod_topology) {
    const std::string& name = topology.spec().pods[static_cast<std::size_t>(pod)].name;
    return scheduler_registry().make(spec.name, spec.params, pod_topology,
                                     placement_registry().make(spec.placement, {}, derive_stream_seed(seed, "pod." + name)));
  });
}

std::unique_ptr<RecoveryPolicy> make_recovery_policy(const RecoverySpec& spec)
{
  return recovery_registry().make(spec.name, spec.params);
}

} // namespace acmesim
