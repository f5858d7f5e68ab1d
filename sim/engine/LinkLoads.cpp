#include "sim/engine/LinkLoads.hpp"

#include "sim/engine/PlatformRings.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
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
  bool listed = false;       // in the visit list of the next sample
};

} // namespace

struct LinkLoads::Impl {
  std::vector<Tracked> links; // by name
  std::unordered_map<const sg4::Link*, std::size_t> index;
  std::vector<std::size_t> visit; // links carrying traffic, and links a flow started on since

  void mark(const sg4::Host* from, const sg4::Host* to)
  {
    std::vector<sg4::Link*> route;
    from->route_to(to, route, nullptr);
    for (const sg4::Link* link : route) {
      const auto it = index.find(link);
      if (it != index.end() && !links[it->second].listed) {
        links[it->second].listed = true;
        visit.push_back(it->second);
      }
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

void LinkLoads::flow_started(const sg4::Host* from, const sg4::Host* to)
{
  impl_->mark(from, to);
  impl_->mark(to, from);
}

LinkLoads::~LinkLoads() = default;

void LinkLoads::sample(double t)
{
  std::vector<std::size_t> still;
  for (const std::size_t i : impl_->visit) {
    Tracked& l = impl_->links[i];
    impl_->advance(l, t);
    l.usage_Bps = l.link->get_usage() * FLOW_BANDWIDTH_FACTOR;
    l.listed = l.usage_Bps > 0;
    if (l.listed)
      still.push_back(i);
  }
  impl_->visit = std::move(still);
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
