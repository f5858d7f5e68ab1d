#pragma once
// Told of each flow the platform starts, by its two ends (LinkLoads follows the links a flow
// loads from it). Both flow services, transfers and rings, take one.
#include <functional>

namespace simgrid::s4u {
class Host;
} // namespace simgrid::s4u

namespace acmesim {

using FlowStart = std::function<void(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to)>;

} // namespace acmesim
