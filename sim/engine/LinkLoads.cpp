#include "sim/engine/LinkLoads.hpp"

#include "sim/engine/FlowModel.hpp"
#include "sim/engine/RouteCache.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace acmesim {

namespace sg4 = simgrid::s4u;

namespace {

// Acme reports the share of NIC samples above a quarter of the bandwidth (acme-facts.md §4).
constexpr double BUSY_NIC_SHARE = 0.25;

struct Tracked {
  sg4::Link* link = nullptr;
  double bandwidth_Bps = 0;
  bool nic = false;
  double since = 0;          // usage holds from here on
  double usage_Bps = 0;
  double used_bytes = 0;     // integral of usage over time
  double idle_s = 0;
  double above_quarter_s = 0;
  bool listed = false;       // in the visit list of the sample under way
};

using Route = RouteCache<std::size_t>::Route; // link indices

struct Flow {
  sg4::CommPtr comm; // its state tells that the flow ended
  const simgrid::kernel::resource::Action* action;
  const Route* route;
  const Route* back; // loaded by cross traffic
  double rate_Bps = 0; // as last sampled
};

} // namespace

struct LinkLoads::Impl {
  std::vector<Tracked> links; // by name
  std::unordered_map<const sg4::Link*, std::size_t> index;
  std::vector<Flow> flows;        // started and not yet seen ended
  std::vector<std::size_t> visit; // links to read at the sample under way
  // Each route as the indices of its links.
  RouteCache<std::size_t> routes{[this](const sg4::Link* link) -> std::optional<std::size_t> {
    if (const auto known = index.find(link); known != index.end())
      return known->second;
    return std::nullopt;
  }};

  void mark(const Route& route)
  {
    for (const std::size_t i : route)
      if (!links[i].listed) {
        links[i].listed = true;
        visit.push_back(i);
      }
  }

  void advance(Tracked& l, double t)
  {
    const double dt = t - l.since;
    l.used_bytes += l.usage_Bps * dt;
    if (l.usage_Bps <= 0)
      l.idle_s += dt;
    else if (l.usage_Bps > BUSY_NIC_SHARE * l.bandwidth_Bps)
      l.above_quarter_s += dt;
    l.since = t;
  }
};

LinkLoads::LinkLoads(const Platform& platform) : impl_(std::make_unique<Impl>())
{
  std::vector<sg4::Link*> all = sg4::Engine::get_instance()->get_all_links();
  std::sort(all.begin(), all.end(), [](const sg4::Link* a, const sg4::Link* b) { return a->get_name() < b->get_name(); });
  for (sg4::Link* link : all) {
    impl_->index.emplace(link, impl_->links.size());
    impl_->links.push_back(Tracked{link, link->get_bandwidth()});
  }
  // A split-duplex cable is two links, one per direction.
  for (const sg4::Link* cable : platform.compute_cables)
    for (const char* direction : {"_UP", "_DOWN"})
      if (const sg4::Link* link = sg4::Link::by_name_or_null(cable->get_name() + direction))
        impl_->links[impl_->index.at(link)].nic = true;
}

void LinkLoads::flow_started(const StartedFlow& flow)
{
  impl_->flows.push_back(Flow{flow.comm, flow.action, &impl_->routes.route(flow.from, flow.to),
                                 &impl_->routes.route(flow.to, flow.from)});
}

LinkLoads::~LinkLoads() = default;

void LinkLoads::sample(double t)
{
  // A link's usage is the sum of what its flows get: it changed only if one of them got another rate.
  std::erase_if(impl_->flows, [this](Flow& flow) {
    const bool ended = flow.comm->get_state() != sg4::Activity::State::STARTED;
    const double rate = ended ? 0 : flow.action->get_rate();
    if (rate != flow.rate_Bps) {
      impl_->mark(*flow.route);
      impl_->mark(*flow.back);
      flow.rate_Bps = rate;
    }
    return ended;
  });
  for (const std::size_t i : impl_->visit) {
    Tracked& l = impl_->links[i];
    impl_->advance(l, t);
    l.usage_Bps = l.link->get_usage() * FLOW_BANDWIDTH_FACTOR;
    l.listed = false;
  }
  impl_->visit.clear();
}

NetworkLoad LinkLoads::finish(double t)
{
  NetworkLoad load;
  load.span_s = t;
  double nic_used = 0, nic_capacity = 0;
  for (Tracked& l : impl_->links) {
    impl_->advance(l, t);
    if (l.nic) {
      ++load.nic_directions;
      load.nic_idle_share += l.idle_s;
      load.nic_above_quarter_share += l.above_quarter_s;
      nic_used += l.used_bytes;
      nic_capacity += l.bandwidth_Bps * t;
    }
    if (l.used_bytes > 0 && t > 0)
      load.links.push_back(LinkUse{l.link->get_name(), l.bandwidth_Bps, l.used_bytes / (l.bandwidth_Bps * t)});
  }
  const double nic_time = static_cast<double>(load.nic_directions) * t;
  if (nic_time > 0) {
    load.nic_idle_share /= nic_time;
    load.nic_above_quarter_share /= nic_time;
    load.nic_mean_utilisation = nic_used / nic_capacity;
  }
  std::stable_sort(load.links.begin(), load.links.end(),
                   [](const LinkUse& a, const LinkUse& b) { return a.mean_utilisation > b.mean_utilisation; });
  return load;
}

} // namespace acmesim
