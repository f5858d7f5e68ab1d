#pragma once
// TransferService on the SimGrid platform: a transfer is one flow per node between the node's
// host and the storage host, started from maestro (no actors), so simultaneous checkpoints share
// NICs, fabric and the storage service as SimGrid's network model decides. Failed components
// are turned off: a node's host (node, gpu, nvlink), its cables (nic), a leaf switch's cables,
// the storage service link.
#include "sim/engine/FlowStart.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/run/TransferService.hpp"

#include <functional>
#include <memory>

namespace acmesim {

class PlatformTransfers final : public TransferService {
public:
  // `done(id)` is called from the engine when the last flow of transfer `id` has ended;
  // `changed()`, if given, whenever a flow starts or ends or a component goes off or on.
  PlatformTransfers(const Topology& topology, const Platform& platform, std::function<void(TransferId)> done,
                    std::function<void()> changed = {});
  ~PlatformTransfers() override;

  // `started(from, to)` for each flow started from now on.
  void watch_flow_starts(FlowStart started);

  void start(TransferId id, const Allocation& allocation, double bytes_per_node, TransferDirection direction) override;
  void cancel(TransferId id) override;
  void set_component_up(Component component, std::uint32_t target, bool up) override;
  LoneFlowShares lone_flow_shares() const override;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace acmesim
