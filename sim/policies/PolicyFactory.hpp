#pragma once
// Builds the policies named in a scenario. The names and parameters are those of
// PolicyCatalogue (already validated by the scenario loader).
#include "sim/config/Scenario.hpp"
#include "sim/scheduler/SchedulerApi.hpp"

#include <cstdint>
#include <memory>

namespace acmesim {

std::unique_ptr<PlacementPolicy> make_placement(const std::string& name, std::uint64_t seed);
std::unique_ptr<Scheduler> make_scheduler(const SchedulerSpec& spec, const Topology& topology, std::uint64_t seed);

} // namespace acmesim
