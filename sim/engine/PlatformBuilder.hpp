#pragma once
// Builds the SimGrid platform from the Topology graph through the s4u API: one zone per pod
// (hosts for GPU nodes, routers for leaf and spine switches, links for cables; shortest-path
// routing), and one zone for the storage service, both under a root zone.
// Call once per process, after creating the s4u::Engine and before running it.
#include "models/cluster/Topology.hpp"

#include <vector>

namespace simgrid::s4u {
class Host;
}

namespace acmesim {

struct Platform {
  std::vector<simgrid::s4u::Host*> node_hosts; // indexed by NodeId
  simgrid::s4u::Host* storage_host = nullptr;
};

Platform build_platform(const Topology& topology);

} // namespace acmesim
