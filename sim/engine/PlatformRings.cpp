#include "sim/engine/PlatformRings.hpp"

#include "models/network/FabricSharing.hpp"
#include "sim/engine/FlowModel.hpp"
#include "sim/engine/RouteCache.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Comm.hpp>
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

struct PlatformRings::Impl {
  const Platform* platform;
  std::function<void()> changed;
  struct Ring {
    // Flows of a domain's traffic: one per flow host pair under ecmp routing (PlatformBuilder.hpp),
    // on each lane (RingLayout).
    std::size_t flows_per_hop = 1;
    Burst burst;                   // of one of its flows
    RingLoad load;                 // the links its flows cross, with how many of them (trains point at it)
    double flow_demand = 0; // a flow's mean demand, in SimGrid's bandwidth units (a bound's)
    std::uint64_t opening = 0;
    bool paused = false;
  };
  std::map<JobId, Ring> rings;
  std::uint64_t openings = 0;
  // What the rings get while they send, over the links they have crossed.
  FabricShares shares;
  // Each link the rings or storage flows crossed, by index into the shares' links.
  struct LinkState {
    sg4::Link* link;
    double nominal_bandwidth; // as built
    std::vector<std::pair<JobId, RingDemand>> demands; // the sending rings' on it
    std::size_t others = 0;   // storage flows on it
    double held = 0;          // taken off its bandwidth for the rings
  };
  std::vector<LinkState> links;
  std::unordered_map<const sg4::Link*, std::size_t> link_index;
  // Flows of the other services while they run: their rates load the links the rings cross.
  struct OtherFlow {
    sg4::CommPtr comm;
    const Action* action;
    std::vector<std::size_t> links; // its route, as links of the shares
  };
  std::vector<OtherFlow> others;
  RouteCache<std::size_t> routes{[this](sg4::Link* link) { return std::optional<std::size_t>(index_of(link)); }};
  // Links with steady flows at the last look, and the rates found on each (scratch, by link).
  std::vector<std::size_t> loaded;
  std::vector<std::vector<double>> steady;
  std::vector<RingDemand> scratch;

  double ring_efficiency; // of a link's bandwidth, what a ring's flow alone on it gets
  Impl(PhaseAlignment phases, double efficiency) : shares(phases), ring_efficiency(efficiency) {}

  std::size_t index_of(sg4::Link* link)
  {
    const auto [it, added] = link_index.try_emplace(link, shares.link_count());
    if (added) {
      shares.add_link(link->get_bandwidth() * ring_efficiency);
      links.push_back(LinkState{link, link->get_bandwidth(), {}, 0, 0});
      steady.emplace_back();
    }
    return it->second;
  }

  // Lowers the link's SimGrid bandwidth by what the rings hold of it beside its storage flows
  // (none without storage flows: no one else would see it). Whether it moved.
  bool reserve(std::size_t l)
  {
    LinkState& state = links[l];
    double held = 0;
    if (state.others > 0 && !state.demands.empty()) {
      scratch.clear();
      for (const auto& demand : state.demands)
        scratch.push_back(demand.second);
      held = rings_hold_Bps(scratch, state.others, state.nominal_bandwidth);
    }
    if (held == state.held)
      return false;
    state.held = held;
    state.link->set_bandwidth(state.nominal_bandwidth - held);
    return true;
  }

  // The ring's links as the shares index them, for their solve (when it opens or resumes).
  std::vector<RingLink> shares_links(const Ring& ring) const
  {
    std::vector<RingLink> out;
    for (const auto& [link, flows] : ring.load)
      out.push_back(RingLink{link_index.at(link), static_cast<int>(flows)});
    return out;
  }

  // A ring starts or stops holding its mean load on its links (when it opens, pauses, resumes or
  // closes: not per change of sharing).
  void hold(JobId job, const Ring& ring)
  {
    for (const auto& [link, weight] : ring.load) {
      const std::size_t l = link_index.at(link);
      links[l].demands.emplace_back(job, RingDemand{weight, ring.flow_demand});
      reserve(l);
    }
  }
  void release(JobId job, const Ring& ring)
  {
    for (const auto& use : ring.load) {
      const std::size_t l = link_index.at(use.first);
      std::erase_if(links[l].demands, [job](const auto& demand) { return demand.first == job; });
      reserve(l);
    }
  }

  // Drops the storage flows that ended (their links' bandwidth is given back) and hands the shares
  // the others' rates on the rings' links, where they changed.
  void update_steady()
  {
    bool moved = false;
    std::erase_if(others, [&](const OtherFlow& flow) {
      if (flow.comm->get_state() == sg4::Activity::State::STARTED)
        return false;
      for (const std::size_t l : flow.links) {
        --links[l].others;
        moved = reserve(l) || moved;
      }
      return true;
    });
    if (moved)
      changed(); // the flows left get more: read them again
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

PlatformRings::PlatformRings(const Platform& platform, PhaseAlignment phases, double ring_efficiency,
                             std::function<void()> changed)
    : impl_(std::make_unique<Impl>(phases, ring_efficiency))
{
  impl_->platform = &platform;
  impl_->changed = std::move(changed);
}

PlatformRings::~PlatformRings() = default;

void PlatformRings::other_flow_started(const StartedFlow& flow)
{
  Impl& d = *impl_;
  const auto& route = d.routes.route(flow.from, flow.to);
  for (const std::size_t l : route) {
    ++d.links[l].others;
    d.reserve(l);
  }
  d.others.push_back(Impl::OtherFlow{flow.comm, flow.action, route});
}

void PlatformRings::open(JobId job, const RingLayout& layout, const RingTraffic& traffic)
{
  if (layout.hops.empty())
    throw std::logic_error("a ring needs a hop across the fabric");
  Impl& d = *impl_;
  const auto [it, added] = d.rings.try_emplace(job);
  if (!added)
    throw std::logic_error("job " + std::to_string(job) + " already has a ring");
  Impl::Ring& ring = it->second;
  const Platform& platform = *d.platform;
  // A hop travels in as many flows as both its ends open toward a peer, and a domain's traffic in
  // that many on each of its lanes, each flow a share of the domain's bytes.
  std::size_t endpoints = platform.flows_of(layout.hops.front().from);
  for (const RingHop& hop : layout.hops)
    endpoints = std::min({endpoints, platform.flows_of(hop.from), platform.flows_of(hop.to)});
  ring.flows_per_hop = endpoints * static_cast<std::size_t>(layout.lanes);
  const auto per_flow = static_cast<double>(ring.flows_per_hop);
  ring.burst = traffic.burst;
  ring.burst.critical_bytes /= per_flow;
  ring.burst.hidden_bytes /= per_flow;
  ring.burst.peak_Bps /= per_flow;
  ring.flow_demand = traffic.mean_Bps / per_flow / FLOW_BANDWIDTH_FACTOR;
  ring.opening = d.openings++;
  // By link: the ring's flows on it. Its acknowledgements load nothing: the ring's efficiency is
  // NCCL's measured bus bandwidth, every overhead of the wire included.
  std::map<std::size_t, int> flows;
  for (const RingHop& hop : layout.hops)
    for (std::size_t flow = 0; flow < endpoints; ++flow) {
      const sg4::Host* from = platform.flow_endpoint(hop.from, flow);
      const sg4::Host* to = platform.flow_endpoint(hop.to, flow);
      for (const std::size_t l : d.routes.route(from, to))
        ++flows[l];
    }
  for (const auto& [l, count] : flows)
    ring.load.emplace_back(d.links[l].link, count);
  d.shares.add_ring(job, ring.burst, d.shares_links(ring));
  d.hold(job, ring);
  d.changed();
}

void PlatformRings::close(JobId job)
{
  Impl& d = *impl_;
  const auto it = d.rings.find(job);
  if (it == d.rings.end())
    return;
  if (!it->second.paused) {
    d.shares.remove_ring(job);
    d.release(job, it->second);
  }
  d.rings.erase(it);
  d.changed();
}

void PlatformRings::pause(JobId job)
{
  Impl& d = *impl_;
  Impl::Ring& ring = d.rings.at(job);
  if (ring.paused)
    throw std::logic_error("job " + std::to_string(job) + "'s ring is paused twice");
  ring.paused = true;
  d.shares.remove_ring(job);
  d.release(job, ring);
  d.changed();
}

void PlatformRings::resume(JobId job)
{
  Impl& d = *impl_;
  Impl::Ring& ring = d.rings.at(job);
  if (!ring.paused)
    throw std::logic_error("job " + std::to_string(job) + "'s ring resumes without a pause");
  ring.paused = false;
  d.shares.add_ring(job, ring.burst, d.shares_links(ring));
  d.hold(job, ring);
  d.changed();
}

std::vector<CommLink> PlatformRings::links(JobId job) const
{
  std::vector<CommLink> out;
  const auto it = impl_->rings.find(job);
  if (it == impl_->rings.end())
    return out;
  for (const auto& [link, flows] : it->second.load) {
    const Platform::LinkRole role = impl_->platform->link_roles.at(link);
    out.push_back(CommLink{link->get_name(), role.leaf, role.uplink, role.up, static_cast<int>(flows), role.core});
  }
  return out;
}

std::map<JobId, double> PlatformRings::sending_rates()
{
  std::map<JobId, double> out;
  for (const auto& [job, train] : trains()) // a ring's rate is that of a hop: all its flows together
    out.emplace_hint(out.end(), job, train.flow_rate_Bps * static_cast<double>(impl_->rings.at(job).flows_per_hop));
  return out;
}

RingTrains PlatformRings::trains()
{
  impl_->update_steady();
  RingTrains out;
  out.reserve(impl_->rings.size());
  impl_->shares.for_each_rate([&](FabricShares::RingKey key, double rate) {
    const auto job = static_cast<JobId>(key);
    const Impl::Ring& ring = impl_->rings.at(job);
    out.emplace_back(job, RingTrain{ring.burst.bytes(), rate, ring.burst.step_s(rate), &ring.load, ring.opening});
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::size_t PlatformRings::open_rings() const { return impl_->rings.size(); }

} // namespace acmesim
