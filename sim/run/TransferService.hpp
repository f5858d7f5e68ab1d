#pragma once
// What the run (Run) asks of the engine besides keeping time: storage flows
// for checkpoint writes and loads, and failed components turned off and on. The SimGrid
// implementation is PlatformTransfers; the run stays engine-free and is unit-tested without it.
#include "models/cluster/ClusterSpec.hpp"
#include "models/failure/FailureSpec.hpp"
#include "sim/policy_api/JobShape.hpp"

#include <cstdint>

namespace acmesim {

using TransferId = std::uint64_t;

enum class TransferDirection : std::uint8_t { ToStorage, FromStorage };

class TransferService {
public:
  virtual ~TransferService() = default;
  // Moves `bytes_per_node` between each node of `allocation` and the storage service, all
  // flows at once. The engine reports the end of the last flow with Run::transfer_done.
  virtual void start(TransferId id, const Allocation& allocation, double bytes_per_node,
                     TransferDirection direction) = 0;
  virtual void cancel(TransferId id) = 0;
  // A failed component goes off (up == false) or comes back on the platform.
  virtual void set_component_up(Component component, std::uint32_t target, bool up) = 0;
  // The share of a link's bandwidth a storage flow alone gets under the engine's network model,
  // on a node's cable and on the storage service: uncontended_storage_Bps with these shares is
  // what a transfer with nothing else on its way really moves per second.
  virtual LoneFlowShares lone_flow_shares() const = 0;
};

} // namespace acmesim
