#pragma once
// The three kinds of policy a scenario names: schedulers (scheduler.name), placement policies
// (scheduler.placement) and recovery policies (recovery.name). Each policy registers itself in
// its own file (PolicyRegistry.hpp).
#include "sim/policies/PolicyRegistry.hpp"
#include "sim/policy_api/RecoveryPolicy.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

#include <cstdint>

namespace acmesim {

// A scheduler is built for a topology, with the placement policy the scenario names.
using SchedulerRegistry = PolicyRegistry<Scheduler, const Topology&, std::unique_ptr<PlacementPolicy>>;
// A placement policy may draw from its own random stream of the run's seed.
using PlacementRegistry = PolicyRegistry<PlacementPolicy, std::uint64_t>;
using RecoveryRegistry = PolicyRegistry<RecoveryPolicy>;

SchedulerRegistry& scheduler_registry();
PlacementRegistry& placement_registry();
RecoveryRegistry& recovery_registry();

// The scheduler of a scenario, with its placement policy.
std::unique_ptr<Scheduler> make_scheduler(const SchedulerSpec& spec, const Topology& topology, std::uint64_t seed);
std::unique_ptr<RecoveryPolicy> make_recovery_policy(const RecoverySpec& spec);

} // namespace acmesim
