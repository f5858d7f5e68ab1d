#include "sim/engine/LinkLoads.hpp"

#include "models/network/SampledLoad.hpp"
#include "sim/engine/FlowModel.hpp"
#include "sim/engine/RouteCache.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <limits>
#include <string_view>
#include <utility>
#include <optional>
#include <unordered_map>
#include <vector>

namespace acmesim {

namespace sg4 = simgrid::s4u;

namespace {

// Acme reports the share of NIC samples above a quarter of the bandwidth (acme-facts.md §4).
constexpr double BUSY_NIC_SHARE = 0.25;

using FlowId = std::uint64_t;
constexpr FlowId ENDED = std::numeric_limits<FlowId>::max(); // a flow seen ended, to drop

// A storage flow on a NIC direction: its own route (weight 1) or its route back (its cross traffic).
struct FlowOnNic {
  FlowId flow;
  double weight;
};

struct Tracked {
  sg4::Link* link = nullptr;
  double bandwidth_Bps = 0;
  bool nic = false;
  double since = 0;          // load holds from here on
  double load_Bps = 0;
  double used_bytes = 0;     // integral of load over time
  double idle_s = 0;
  double above_quarter_s = 0;
  bool listed = false;       // in the visit list of the sample under way
  std::vector<std::pair<JobId, double>> rings; // the rings that send on it, with their weight
  // NIC directions: the storage flows on it, and what windows read with them and the rings as they are.
  std::vector<FlowOnNic> flows;
  WindowShares windows{1, 0};
};

using Route = RouteCache<std::size_t>::Route; // link indices

struct Flow {
  FlowId id;
  sg4::CommPtr comm; // its state tells that the flow ended
  const simgrid::kernel::resource::Action* action;
  const Route* route;
  const Route* back; // loaded by cross traffic
  double rate_Bps = 0; // as last sampled
};

// The train of `job` among `trains` (in job order), if it sends.
const RingTrain* train_of(const RingTrains& trains, JobId job)
{
  const auto it = std::lower_bound(trains.begin(), trains.end(), job,
                                   [](const std::pair<JobId, RingTrain>& t, JobId j) { return t.first < j; });
  return it != trains.end() && it->first == job ? &it->second : nullptr;
}

} // namespace

struct LinkLoads::Impl {
  double nic_window_s = 0;
  Trains trains;
  std::vector<Tracked> links; // by name
  std::unordered_map<const sg4::Link*, std::size_t> index;
  std::vector<Flow> flows; // started and not yet seen ended, in the order they started (so by id)
  FlowId next_id = 0;
  // The links each sending ring loads, with its weight on each, as learnt from its train.
  std::unordered_map<JobId, std::vector<std::pair<std::size_t, double>>> ring_links;
  RingTrains sent; // the rings' bursts at the last sample
  std::vector<std::size_t> visit; // links to read at the sample under way
  // Each route as the indices of its links.
  RouteCache<std::size_t> routes{[this](const sg4::Link* link) -> std::optional<std::size_t> {
    if (const auto known = index.find(link); known != index.end())
      return known->second;
    return std::nullopt;
  }};

  // The flow of that id, unless it was seen ended.
  const Flow* running(FlowId id) const
  {
    const auto it = std::lower_bound(flows.begin(), flows.end(), id, [](const Flow& f, FlowId i) { return f.id < i; });
    return it != flows.end() && it->id == id ? &*it : nullptr;
  }

  void mark(const Route& route)
  {
    for (const std::size_t i : route)
      mark(i);
  }

  void mark(std::size_t i)
  {
    if (!links[i].listed) {
      links[i].listed = true;
      visit.push_back(i);
    }
  }

  void advance(Tracked& l, double t)
  {
    const double dt = t - l.since;
    l.used_bytes += l.load_Bps * dt;
    if (l.nic) {
      l.idle_s += l.windows.idle * dt;
      l.above_quarter_s += l.windows.above * dt;
    }
    l.since = t;
  }

  // The rings' mean load on a link.
  static double rings_load_Bps(const Tracked& l, const RingTrains& now)
  {
    double load = 0;
    for (const auto& [job, weight] : l.rings)
      load += weight * train_of(now, job)->mean_Bps();
    return load;
  }

  // What windows on a NIC direction read: the storage flows at their rates, each sending ring as
  // its bursts (its flows on the link together, at the ring's rate while it sends).
  void read_windows(Tracked& l, const RingTrains& now)
  {
    double steady_Bps = 0;
    for (FlowOnNic& f : l.flows) {
      if (const Flow* flow = running(f.flow))
        steady_Bps += f.weight * flow->rate_Bps;
      else
        f.flow = ENDED;
    }
    std::erase_if(l.flows, [](const FlowOnNic& f) { return f.flow == ENDED; });
    std::vector<BurstTrain> bursts;
    for (const auto& [job, weight] : l.rings) {
      const RingTrain& train = *train_of(now, job);
      if (train.flow_rate_Bps > 0)
        bursts.push_back(BurstTrain{weight * train.flow_rate_Bps, train.flow_bytes / train.flow_rate_Bps, train.step_s});
    }
    l.windows = window_shares(steady_Bps, bursts, nic_window_s, BUSY_NIC_SHARE * l.bandwidth_Bps);
  }

  void ring_started(JobId job, const RingTrain& train)
  {
    auto& uses = ring_links[job];
    for (const auto& [link, weight] : *train.load) {
      const std::size_t i = index.at(link);
      uses.emplace_back(i, weight);
      links[i].rings.emplace_back(job, weight);
      mark(i);
    }
  }

  void ring_stopped(JobId job)
  {
    const auto it = ring_links.find(job);
    for (const auto& use : it->second) {
      std::erase_if(links[use.first].rings, [job](const auto& ring) { return ring.first == job; });
      mark(use.first);
    }
    ring_links.erase(it);
  }

  // Follows the rings that started, stopped (closed or paused) or changed their bursts since the
  // last sample, and marks their links.
  void follow_rings(const RingTrains& now)
  {
    // Both in job order: walk them together.
    auto was = sent.begin();
    for (const auto& [job, train] : now) {
      for (; was != sent.end() && was->first < job; ++was)
        ring_stopped(was->first);
      if (was == sent.end() || was->first != job) {
        ring_started(job, train);
        continue;
      }
      if (was->second.opening != train.opening) { // closed and opened again, maybe elsewhere
        ring_stopped(job);
        ring_started(job, train);
      } else if (!(was->second == train))
        for (const auto& use : ring_links.at(job))
          mark(use.first);
      ++was;
    }
    for (; was != sent.end(); ++was)
      ring_stopped(was->first);
  }
};

LinkLoads::LinkLoads(const Platform& platform, double nic_window_s, Trains trains) : impl_(std::make_unique<Impl>())
{
  impl_->nic_window_s = nic_window_s;
  impl_->trains = std::move(trains);
  // By name, for an order that does not depend on addresses. Each name is read once: the sort's
  // comparisons through Link::get_name were a fifth of building a 100,000-GPU ecmp platform.
  std::vector<std::pair<std::string_view, sg4::Link*>> all;
  for (sg4::Link* link : sg4::Engine::get_instance()->get_all_links())
    all.emplace_back(link->get_name(), link);
  std::sort(all.begin(), all.end());
  impl_->index.reserve(all.size());
  impl_->links.reserve(all.size());
  for (const auto& [name, link] : all) {
    impl_->index.emplace(link, impl_->links.size());
    Tracked& tracked = impl_->links.emplace_back();
    tracked.link = link;
    tracked.bandwidth_Bps = link->get_bandwidth();
  }
  // A split-duplex cable is two links, one per direction.
  for (const sg4::Link* cable : platform.compute_cables)
    for (const char* direction : {"_UP", "_DOWN"})
      if (const sg4::Link* link = sg4::Link::by_name_or_null(cable->get_name() + direction))
        impl_->links[impl_->index.at(link)].nic = true;
}

void LinkLoads::flow_started(const StartedFlow& flow)
{
  Impl& d = *impl_;
  const FlowId id = d.next_id++;
  const Flow& added = d.flows.emplace_back(
      Flow{id, flow.comm, flow.action, &d.routes.route(flow.from, flow.to), &d.routes.route(flow.to, flow.from)});
  for (const auto& [route, weight] : {std::pair{added.route, 1.0}, std::pair{added.back, CROSS_TRAFFIC_WEIGHT}})
    for (const std::size_t i : *route)
      if (d.links[i].nic)
        d.links[i].flows.push_back(FlowOnNic{id, weight});
}

LinkLoads::~LinkLoads() = default;

void LinkLoads::sample(double t)
{
  Impl& d = *impl_;
  // A link's storage usage is the sum of what its flows get: it changed only if one of them got
  // another rate.
  std::erase_if(d.flows, [&d](Flow& flow) {
    const bool ended = flow.comm->get_state() != sg4::Activity::State::STARTED;
    const double rate = ended ? 0 : flow.action->get_rate();
    if (rate != flow.rate_Bps || ended) {
      d.mark(*flow.route);
      d.mark(*flow.back);
      flow.rate_Bps = rate;
    }
    return ended;
  });
  RingTrains now = d.trains ? d.trains() : RingTrains{};
  d.follow_rings(now);
  for (const std::size_t i : d.visit) {
    Tracked& l = d.links[i];
    d.advance(l, t);
    l.load_Bps = l.link->get_usage() * FLOW_BANDWIDTH_FACTOR + Impl::rings_load_Bps(l, now);
    if (l.nic)
      d.read_windows(l, now);
    l.listed = false;
  }
  d.visit.clear();
  d.sent = std::move(now);
}

NetworkLoad LinkLoads::finish(double t)
{
  NetworkLoad load;
  load.span_s = t;
  load.nic_window_s = impl_->nic_window_s;
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
