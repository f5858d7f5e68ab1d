#include "sim/policies/Registries.hpp"

#include "models/common/Random.hpp"
#include "sim/plugins/CheckedScheduler.hpp"
#include "sim/plugins/PluginLoader.hpp"
#include "sim/plugins/PythonPolicy.hpp"
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

namespace {

// One scheduler of the scenario's, for `topology` (the cluster, or one pod of it).
std::unique_ptr<Scheduler> make_one(const SchedulerSpec& spec, const Topology& topology, std::uint64_t placement_seed)
{
  auto placement = placement_registry().make(spec.placement, {}, placement_seed);
  if (spec.plugin.empty() && spec.python.empty())
    return scheduler_registry().make(spec.name, spec.params, topology, std::move(placement));
  const bool python = !spec.python.empty();
  const PolicyInfo& info = python ? load_python_policy(spec.python, spec.python_class)
                                  : load_scheduler_plugin(spec.plugin).info;
  std::map<std::string, double> params = spec.params;
  for (const auto& p : info.params)
    params.try_emplace(p.name, p.default_value);
  if (python)
    return std::make_unique<CheckedScheduler>(
        "python " + spec.python_as_written + " (" + spec.python_class + ")",
        make_python_scheduler(spec.python, spec.python_class, params, std::move(placement)));
  return std::make_unique<CheckedScheduler>(
      "plugin " + spec.plugin_as_written + " (" + info.name + ")",
      load_scheduler_plugin(spec.plugin).factory(PolicyParams(params), topology, std::move(placement)));
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
