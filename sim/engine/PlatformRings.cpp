#include "sim/engine/PlatformRings.hpp"

#include "models/network/FabricSharing.hpp"
#include "sim/engine/FlowModel.hpp"
#include "sim/engine/RetiredComms.hpp"
#include "sim/engine/RouteCache.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace acmesim {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::resource::Action;

namespace {

// Larger than any job sends: a ring flow ends only when it is cancelled.
constexpr std::uint64_t ENDLESS_BYTES = 1ULL << 62;

} // namespace

struct PlatformRings::Impl {
  const Platform* platform;
  std::function<void()> changed;
  FlowStart started;
  struct Flow {
    sg4::CommPtr comm;
    Action* action; // valid while the comm runs
  };
  struct Ring {
    std::vector<Flow> flows;
    std::size_t flows_per_hop = 1; // one per flow host pair under ecmp routing (PlatformBuilder.hpp)
    Burst burst;                   // of one of its flows
    std::vector<RingLink> links; // the links its flows cross, with how many of them
    bool paused = false;
  };
  std::map<JobId, Ring> rings;
  // What the rings get while they send, over the links they have crossed.
  FabricShares shares;
  std::unordered_map<const sg4::Link*, std::size_t> link_index; // into the shares' links
  // Flows of the other services while they run: their rates load the links the rings cross.
  struct OtherFlow {
    sg4::CommPtr comm;
    const Action* action;
    std::vector<std::size_t> links; // its route, as links of the shares
  };
  std::vector<OtherFlow> others;
  RouteCache<const sg4::Link*> routes{[](const sg4::Link* link) { return std::optional<const sg4::Link*>(link); }};
  // Links with steady flows at the last look, and the rates found on each (scratch, by link).
  std::vector<std::size_t> loaded;
  std::vector<std::vector<double>> steady;
  RetiredComms retired;
  StartedActions actions;

  explicit Impl(PhaseAlignment phases) : shares(phases) {}

  Flow start_flow(JobId job, sg4::Host* from, sg4::Host* to, double bound_Bps) const
  {
    sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
    comm->set_payload_size(ENDLESS_BYTES);
    comm->start();
    Action& action = actions.of(*comm);
    action.set_bound(bound_Bps / FLOW_BANDWIDTH_FACTOR);
    if (started)
      started(StartedFlow{from, to, comm, &action, job});
    return {comm, &action};
  }

  std::size_t index_of(const sg4::Link* link)
  {
    const auto [it, added] = link_index.try_emplace(link, shares.link_count());
    if (added) {
      shares.add_link(link->get_bandwidth() * acmesim::lone_flow_share());
      steady.emplace_back();
    }
    return it->second;
  }

  // The links of a ring's flows, each once, with the number of its flows crossing it.
  std::vector<RingLink> links_of(const std::vector<std::pair<const sg4::Host*, const sg4::Host*>>& hops)
  {
    std::map<std::size_t, int> count;
    for (const auto& [from, to] : hops)
      for (const sg4::Link* link : routes.route(from, to))
        ++count[index_of(link)];
    std::vector<RingLink> uses;
    for (const auto& [link, flows] : count)
      uses.push_back(RingLink{link, flows});
    return uses;
  }

  std::vector<std::size_t> links_of(const std::vector<const sg4::Link*>& route)
  {
    std::vector<std::size_t> out;
    for (const sg4::Link* link : route)
      out.push_back(index_of(link));
    return out;
  }

  // Hands the shares the other flows' rates on the rings' links, where they changed.
  void update_steady()
  {
    std::erase_if(others, [](const OtherFlow& flow) { return flow.comm->get_state() != sg4::Activity::State::STARTED; });
    std::vector<std::size_t> now_loaded;
    for (const OtherFlow& flow : others)
      for (const std::size_t l : flow.links) {
        if (steady[l].empty())
          now_loaded.push_back(l);
        steady[l].push_back(flow.action->get_rate());
      }
    for (const std::size_t l : loaded)
      if (steady[l].empty())
        shares.set_steady(l, {});
    for (const std::size_t l : now_loaded) {
      shares.set_steady(l, steady[l]);
      steady[l].clear();
    }
    loaded = std::move(now_loaded);
  }
};

PlatformRings::PlatformRings(const Platform& platform, PhaseAlignment phases, std::function<void()> changed)
    : impl_(std::make_unique<Impl>(phases))
{
  impl_->platform = &platform;
  impl_->changed = std::move(changed);
}

PlatformRings::~PlatformRings() = default;

void PlatformRings::watch_flow_starts(FlowStart started) { impl_->started = std::move(started); }

void PlatformRings::other_flow_started(const StartedFlow& flow)
{
  impl_->others.push_back(Impl::OtherFlow{flow.comm, flow.action, impl_->links_of(impl_->routes.route(flow.from, flow.to))});
}

void PlatformRings::open(JobId job, const Allocation& allocation, const RingTraffic& traffic)
{
  const auto& parts = allocation.parts;
  if (parts.size() < 2)
    throw std::logic_error("a ring needs two nodes");
  const auto [it, added] = impl_->rings.try_emplace(job);
  if (!added)
    throw std::logic_error("job " + std::to_string(job) + " already has a ring");
  Impl::Ring& ring = it->second;
  const Platform& platform = *impl_->platform;
  // A hop travels in as many flows as both its ends open toward a peer, each a share of its bytes.
  ring.flows_per_hop = platform.flows_of(parts.front().node);
  for (const auto& part : parts)
    ring.flows_per_hop = std::min(ring.flows_per_hop, platform.flows_of(part.node));
  const auto per_flow = static_cast<double>(ring.flows_per_hop);
  ring.burst = traffic.burst;
  ring.burst.critical_bytes /= per_flow;
  ring.burst.hidden_bytes /= per_flow;
  ring.burst.peak_Bps /= per_flow;
  std::vector<std::pair<const sg4::Host*, const sg4::Host*>> hops;
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t flow = 0; flow < ring.flows_per_hop; ++flow) {
      sg4::Host* from = platform.flow_endpoint(parts[i].node, flow);
      sg4::Host* to = platform.flow_endpoint(parts[(i + 1) % parts.size()].node, flow);
      ring.flows.push_back(impl_->start_flow(job, from, to, traffic.mean_Bps / per_flow));
      hops.emplace_back(from, to);
    }
  ring.links = impl_->links_of(hops);
  impl_->shares.add_ring(job, ring.burst, ring.links);
  impl_->changed();
}

void PlatformRings::close(JobId job)
{
  const auto it = impl_->rings.find(job);
  if (it == impl_->rings.end())
    return;
  impl_->shares.remove_ring(job);
  for (auto& flow : it->second.flows) {
    flow.comm->cancel();
    impl_->retired.add(std::move(flow.comm));
  }
  impl_->rings.erase(it);
  impl_->changed();
}

// On the flows' actions, not their comms: SimGrid 3.32's Activity::resume leaves the comm marked
// suspended, so that its next suspend() does nothing.
void PlatformRings::pause(JobId job)
{
  Impl::Ring& ring = impl_->rings.at(job);
  ring.paused = true;
  impl_->shares.remove_ring(job);
  for (auto& flow : ring.flows)
    flow.action->suspend();
  impl_->changed();
}

void PlatformRings::resume(JobId job)
{
  Impl::Ring& ring = impl_->rings.at(job);
  ring.paused = false;
  impl_->shares.add_ring(job, ring.burst, ring.links);
  for (auto& flow : ring.flows)
    flow.action->resume();
  impl_->changed();
}

std::map<JobId, double> PlatformRings::sending_rates()
{
  std::map<JobId, double> out;
  for (const auto& [job, train] : trains()) {
    const Impl::Ring& ring = impl_->rings.at(job);
    for (const auto& flow : ring.flows)
      if (flow.comm->get_state() != sg4::Activity::State::STARTED)
        throw std::logic_error("a ring flow of job " + std::to_string(job) + " stopped while its job trains");
    // A ring's rate is that of a hop: all its flows together.
    out.emplace_hint(out.end(), job, train.flow_rate_Bps * static_cast<double>(ring.flows_per_hop));
  }
  return out;
}

RingTrains PlatformRings::trains()
{
  impl_->update_steady();
  RingTrains out;
  out.reserve(impl_->rings.size());
  impl_->shares.for_each_rate([&](FabricShares::RingKey key, double rate) {
    const auto job = static_cast<JobId>(key);
    const Burst& burst = impl_->rings.at(job).burst; // of one flow
    out.emplace_back(job, RingTrain{burst.bytes(), rate, burst.step_s(rate)});
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

double PlatformRings::lone_flow_share() const { return acmesim::lone_flow_share(); }

std::size_t PlatformRings::open_rings() const { return impl_->rings.size(); }

} // namespace acmesim
