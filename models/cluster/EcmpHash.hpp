#pragma once
// Which of a leaf's uplinks a flow takes under ECMP routing (FabricRouting::Ecmp). A switch hashes
// the fields that tell flows apart (addresses, ports; for RoCE the queue pair's UDP source port)
// and takes the hash modulo its equal-cost ports: every packet of a flow follows one path, and
// distinct flows land on paths independently of how busy they are, so two may share a cable while
// another carries nothing. Here a flow is told apart by its two ends and its index among the flows
// a node opens toward that peer; the hash is seeded by the scenario's seed, so a run is
// reproducible and another seed draws other collisions. Engine-free: the platform's routing
// (sim/engine/FabricZone) asks it.
#include <cstddef>
#include <cstdint>

namespace acmesim {

// What ECMP flows are told apart by, and the seed of the switches' hash.
struct EcmpFlow {
  std::uint64_t seed = 0;
  std::uint32_t from = 0; // NodeId of the sender
  std::uint32_t to = 0;   // NodeId of the receiver, or ECMP_TO_STORAGE
  std::uint32_t index = 0; // among the flows from `from` to `to`
};
inline constexpr std::uint32_t ECMP_TO_STORAGE = 0xffffffffU;

// The path, in [0, paths), the flow hashes to; paths > 0.
std::size_t ecmp_path(const EcmpFlow& flow, std::size_t paths);

} // namespace acmesim
