#include "sim/policies/Registries.hpp"

#include "models/common/Random.hpp"
#include "sim/policies/ExternalSchedulers.hpp"
#include "sim/policies/PodPartition.hpp"

#include <string>

namespace acmesim {

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

namespace {

// One scheduler of the scenario's, for `topology` (the cluster, or one pod of it).
std::unique_ptr<Scheduler> make_one(const SchedulerSpec& spec, const Topology& topology, std::uint64_t placement_seed)
{
  auto placement = placement_registry().make(spec.placement, {}, placement_seed);
  const std::optional<ExternalKind> external = external_kind(spec);
  if (!external)
    return scheduler_registry().make(spec.name, spec.params, topology, std::move(placement));
  const ExternalSchedulerLoader& loader = external_scheduler(*external);
  std::map<std::string, double> params = spec.params;
  for (const auto& p : loader.declared(spec).params)
    params.try_emplace(p.name, p.default_value);
  return loader.make(spec, params, topology, std::move(placement));
}

} // namespace

std::unique_ptr<Scheduler> make_scheduler(const SchedulerSpec& spec, const Topology& topology, std::uint64_t seed)
{
  if (spec.pods == PodScheduling::Shared)
    return make_one(spec, topology, seed);
  // Each pod's placement draws from a stream of its own, so a pod's runs do not depend on the
  // other pods.
  return std::make_unique<PodPartitionedScheduler>(topology, [&](int pod, const Topology& pod_topology) {
    const std::string& name = topology.spec().pods[static_cast<std::size_t>(pod)].name;
    return make_one(spec, pod_topology, derive_stream_seed(seed, "pod." + name));
  });
}

std::unique_ptr<RecoveryPolicy> make_recovery_policy(const RecoverySpec& spec)
{
  return recovery_registry().make(spec.name, spec.params);
}

} // namespace acmesim
