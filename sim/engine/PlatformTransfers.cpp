#include "sim/engine/PlatformTransfers.hpp"

#include "sim/engine/FlowModel.hpp"
#include "sim/engine/RetiredComms.hpp"

#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace acmesim {

namespace sg4 = simgrid::s4u;

struct PlatformTransfers::Impl {
  const Topology* topology;
  const Platform* platform;
  std::function<void(TransferId)> done;
  std::function<void()> changed;
  FlowStart started;

  void sharing_changed() const
  {
    if (changed)
      changed();
  }
  // Flows still running per transfer, and which transfer each flow belongs to. Comms are kept
  // referenced until they end: SimGrid frees an unreferenced started comm under our feet.
  std::map<TransferId, std::vector<sg4::CommPtr>> flows;
  std::unordered_map<const sg4::Activity*, TransferId> owner;
  RetiredComms retired;
  StartedActions actions;

  void on_completion(const sg4::Activity& activity)
  {
    // The completion signal is global; cancelled or failed comms were forgotten before.
    const auto it = owner.find(&activity);
    if (it == owner.end() || activity.get_state() != sg4::Activity::State::FINISHED)
      return;
    const TransferId id = it->second;
    owner.erase(it);
    sharing_changed();
    auto& running = flows.at(id);
    const auto ended =
        std::find_if(running.begin(), running.end(), [&](const sg4::CommPtr& c) { return c.get() == &activity; });
    retired.add(*ended);
    running.erase(ended);
    if (!running.empty())
      return;
    flows.erase(id);
    done(id);
  }

  // The cables of a switch or node vertex, by the names the platform builder gave them.
  std::vector<sg4::Link*> cables_of(TopologyGraph::vertex_descriptor v) const
  {
    std::vector<sg4::Link*> links;
    const auto& graph = topology->graph();
    for (auto [it, end] = boost::out_edges(v, graph); it != end; ++it) {
      const auto other = boost::target(*it, graph);
      if (graph[other].kind == VertexKind::Storage)
        continue;
      if (sg4::Link* link = sg4::Link::by_name_or_null(graph[*it].name))
        links.push_back(link);
    }
    // Split-duplex platforms pool a leaf's spine cables into one link.
    if (graph[v].kind == VertexKind::Leaf)
      if (sg4::Link* link = sg4::Link::by_name_or_null(uplinks_name(graph[v].name)))
        links.push_back(link);
    return links;
  }
};

PlatformTransfers::PlatformTransfers(const Topology& topology, const Platform& platform,
                                     std::function<void(TransferId)> done, std::function<void()> changed)
    : impl_(std::make_unique<Impl>())
{
  impl_->topology = &topology;
  impl_->platform = &platform;
  impl_->done = std::move(done);
  impl_->changed = std::move(changed);
  Impl* impl = impl_.get();
  // SimGrid 3.32 has no per-activity callback; the global one stays connected for the process,
  // which runs one simulation only (docs/design.md principle 10).
  sg4::Activity::on_completion_cb([impl](const sg4::Activity& a) { impl->on_completion(a); });
}

PlatformTransfers::~PlatformTransfers()
{
  // A run stopped early (interrupted, failed) leaves flows running: they are cancelled while the
  // engine still exists, which SimGrid would otherwise report comm by comm as it goes. Nobody
  // listens any more.
  impl_->changed = nullptr;
  while (!impl_->flows.empty())
    cancel(impl_->flows.begin()->first);
}

void PlatformTransfers::watch_flow_starts(FlowStart started) { impl_->started = std::move(started); }

void PlatformTransfers::start(TransferId id, const Allocation& allocation, double bytes_per_node,
                              TransferDirection direction)
{
  auto& running = impl_->flows[id];
  for (const auto& part : allocation.parts) {
    sg4::Host* node = impl_->platform->node_hosts.at(part.node);
    sg4::Host* storage = impl_->platform->storage_host;
    const bool up = direction == TransferDirection::ToStorage;
    sg4::Host* from = up ? node : storage;
    sg4::Host* to = up ? storage : node;
    sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
    comm->set_payload_size(static_cast<std::uint64_t>(bytes_per_node));
    impl_->owner.emplace(comm.get(), id);
    running.push_back(comm);
    comm->start();
    if (impl_->started)
      impl_->started(StartedFlow{from, to, comm, &impl_->actions.of(*comm)});
  }
  if (running.empty())
    throw std::logic_error("a transfer over no node");
  impl_->sharing_changed();
}

void PlatformTransfers::cancel(TransferId id)
{
  const auto it = impl_->flows.find(id);
  if (it == impl_->flows.end())
    return;
  const auto comms = std::move(it->second);
  impl_->flows.erase(it);
  for (const auto& comm : comms) {
    impl_->owner.erase(comm.get());
    comm->cancel();
    impl_->retired.add(comm);
  }
  impl_->sharing_changed();
}

LoneFlowShares PlatformTransfers::lone_flow_shares() const
{
  // The storage service is one shared link; cables are split-duplex under the flows model.
  return {lone_flow_share(impl_->platform->sharing == CableSharing::Duplex), lone_flow_share(false)};
}

void PlatformTransfers::set_component_up(Component component, std::uint32_t target, bool up)
{
  const auto toggle = [up](auto* resource) {
    if (up)
      resource->turn_on();
    else
      resource->turn_off();
  };
  impl_->sharing_changed();
  const Topology& topology = *impl_->topology;
  switch (component) {
    case Component::Node:
    case Component::Gpu:
    case Component::NvLink:
      toggle(impl_->platform->node_hosts.at(target));
      return;
    case Component::Nic:
      for (sg4::Link* link : impl_->cables_of(topology.node_vertex(target)))
        toggle(link);
      return;
    case Component::LeafSwitch:
      for (sg4::Link* link : impl_->cables_of(topology.leaf_vertex(target)))
        toggle(link);
      return;
    case Component::Storage:
      toggle(impl_->platform->storage_service_link);
      return;
  }
}

} // namespace acmesim
