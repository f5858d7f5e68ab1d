#include "models/network/FabricSharing.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace acmesim {

namespace {

// A flow that never stops, at `rate_Bps`: a step of one second whatever it gets (its bytes hide
// behind a window longer than any), all of which it spends sending.
Burst steady_sender(double rate_Bps)
{
  Burst b;
  b.base_s = 1;
  b.window_s = std::numeric_limits<double>::max();
  b.hidden_bytes = rate_Bps;
  b.peak_Bps = rate_Bps;
  return b;
}

} // namespace

std::size_t FabricShares::add_link(double capacity_Bps)
{
  if (!(capacity_Bps > 0))
    throw std::invalid_argument("fabric: a link needs a capacity > 0");
  links_.push_back(Link{capacity_Bps, {}, {}, false});
  return links_.size() - 1;
}

void FabricShares::mark(std::size_t link)
{
  if (!links_[link].dirty) {
    links_[link].dirty = true;
    dirty_.push_back(link);
  }
}

double FabricShares::alone_on(const Ring& ring, const RingLink& use) const
{
  const Link& link = links_[use.link];
  std::vector<double> peaks{use.flows * ring.burst.peak_Bps};
  peaks.insert(peaks.end(), link.steady.begin(), link.steady.end());
  return max_min_share(peaks, 0, link.capacity_Bps) / use.flows;
}

void FabricShares::find_least(Ring& ring)
{
  ring.least = ring.second = ring.burst.peak_Bps;
  ring.least_use = ring.uses.size(); // none: the peak
  for (std::size_t u = 0; u < ring.uses.size(); ++u) {
    if (ring.alone[u] < ring.least) {
      ring.second = ring.least;
      ring.least = ring.alone[u];
      ring.least_use = u;
    } else if (ring.alone[u] < ring.second) {
      ring.second = ring.alone[u];
    }
  }
}

void FabricShares::set_steady(std::size_t link, std::span<const double> steady_Bps)
{
  Link& l = links_.at(link);
  if (std::equal(l.steady.begin(), l.steady.end(), steady_Bps.begin(), steady_Bps.end()))
    return;
  l.steady.assign(steady_Bps.begin(), steady_Bps.end());
  mark(link);
  // What the rings here get alone changed, and with it their peaks on their other links.
  for (const Link::User& user : l.users) {
    Ring& ring = rings_.at(user.ring);
    ring.alone[user.use] = alone_on(ring, ring.uses[user.use]);
    const double least = ring.least, second = ring.second;
    find_least(ring);
    if (ring.least == least && ring.second == second)
      continue; // no other link's peak for it moved
    for (const RingLink& use : ring.uses)
      mark(use.link);
  }
}

void FabricShares::add_ring(RingKey key, const Burst& burst, std::vector<RingLink> uses)
{
  if (!(burst.peak_Bps > 0))
    throw std::invalid_argument("fabric: a ring needs a peak rate > 0");
  for (const RingLink& use : uses)
    if (use.link >= links_.size() || use.flows < 1)
      throw std::invalid_argument("fabric: a ring uses a link that is not given, or no flow of it");
  const auto [it, added] = rings_.try_emplace(key);
  if (!added)
    throw std::logic_error("fabric: a ring is added twice");
  Ring& ring = it->second;
  ring.burst = burst;
  ring.uses = std::move(uses);
  ring.got.assign(ring.uses.size(), burst.peak_Bps);
  ring.rate_Bps = burst.peak_Bps;
  for (std::size_t u = 0; u < ring.uses.size(); ++u) {
    ring.alone.push_back(alone_on(ring, ring.uses[u]));
    links_[ring.uses[u].link].users.push_back(Link::User{key, u});
    mark(ring.uses[u].link);
  }
  find_least(ring);
  order_.push_back(key);
}

void FabricShares::remove_ring(RingKey key)
{
  const auto it = rings_.find(key);
  if (it == rings_.end())
    return;
  for (const RingLink& use : it->second.uses) {
    std::erase_if(links_[use.link].users, [key](const Link::User& user) { return user.ring == key; });
    mark(use.link);
  }
  rings_.erase(it);
  std::erase(order_, key);
}

void FabricShares::solve_link(std::size_t l, std::vector<RingKey>& touched)
{
  const Link& link = links_[l];
  if (link.users.empty())
    return;
  senders_.clear();
  for (const Link::User& user : link.users) {
    const Ring& ring = rings_.at(user.ring);
    const double elsewhere = user.use == ring.least_use ? ring.second : ring.least;
    const double k = ring.uses[user.use].flows;
    Burst b = ring.burst;
    b.critical_bytes *= k;
    b.hidden_bytes *= k;
    b.peak_Bps = k * elsewhere;
    senders_.push_back(b);
  }
  for (const double rate : link.steady)
    if (rate > 0)
      senders_.push_back(steady_sender(rate));
  // Most links carry one ring and nothing else (a job's own node cables): it gets what it can.
  const std::vector<double> rates = senders_.size() == 1
                                        ? std::vector<double>{std::min(senders_[0].peak_Bps, link.capacity_Bps)}
                                        : burst_rates(senders_, link.capacity_Bps, alignment_);
  for (std::size_t i = 0; i < link.users.size(); ++i) {
    const Link::User& user = link.users[i];
    Ring& ring = rings_.at(user.ring);
    ring.got[user.use] = rates[i] / ring.uses[user.use].flows;
    if (!ring.touched) {
      ring.touched = true;
      touched.push_back(user.ring);
    }
  }
}

void FabricShares::solve()
{
  if (dirty_.empty())
    return;
  std::vector<RingKey> touched;
  for (const std::size_t l : dirty_) {
    links_[l].dirty = false;
    solve_link(l, touched);
  }
  dirty_.clear();
  for (const RingKey key : touched) {
    Ring& ring = rings_.at(key);
    ring.touched = false;
    ring.rate_Bps = ring.burst.peak_Bps;
    for (const double got : ring.got)
      ring.rate_Bps = std::min(ring.rate_Bps, got);
  }
}

double FabricShares::rate_Bps(RingKey key)
{
  solve();
  return rings_.at(key).rate_Bps;
}

double rings_hold_Bps(std::span<const RingDemand> rings, std::size_t other_flows, double capacity_Bps)
{
  double all = 0;
  for (const RingDemand& ring : rings)
    all += ring.weight * ring.flow_Bps;
  if (other_flows == 0) // nothing competes: what the link carries of the rings, at most all of it
    return std::min(capacity_Bps, all);
  std::vector<RingDemand> by_demand(rings.begin(), rings.end());
  std::sort(by_demand.begin(), by_demand.end(),
            [](const RingDemand& a, const RingDemand& b) { return a.flow_Bps < b.flow_Bps; });
  double left = capacity_Bps;
  double weight = static_cast<double>(other_flows); // of the flows still below the level
  for (const RingDemand& ring : by_demand)
    weight += ring.weight;
  double held = 0;
  for (const RingDemand& ring : by_demand) {
    // Water-filling: the level if every flow still unserved rose together.
    const double level = left / weight;
    if (ring.flow_Bps > level) // this ring and every one after it stop at the level
      return held + level * (weight - static_cast<double>(other_flows));
    held += ring.weight * ring.flow_Bps;
    left -= ring.weight * ring.flow_Bps;
    weight -= ring.weight;
  }
  return held;
}

std::vector<double> ring_rates(std::span<const SharedLink> links, std::span<const RingOnLinks> rings,
                               PhaseAlignment alignment)
{
  FabricShares shares(alignment);
  for (const SharedLink& link : links)
    shares.set_steady(shares.add_link(link.capacity_Bps), link.steady_Bps);
  for (std::size_t r = 0; r < rings.size(); ++r)
    shares.add_ring(r, rings[r].burst, rings[r].links);
  std::vector<double> rates;
  for (std::size_t r = 0; r < rings.size(); ++r)
    rates.push_back(shares.rate_Bps(r));
  return rates;
}

} // namespace acmesim
