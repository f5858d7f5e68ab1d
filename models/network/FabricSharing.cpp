#include "models/network/FabricSharing.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace acmesim {

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();

// A flow that never stops, at `rate_Bps`: a step of one second whatever it gets (its bytes hide
// behind a window longer than any), all of which it spends sending.
Burst steady(double rate_Bps)
{
  Burst b;
  b.base_s = 1;
  b.window_s = std::numeric_limits<double>::max();
  b.hidden_bytes = rate_Bps;
  b.peak_Bps = rate_Bps;
  return b;
}

// Which rings use each link, and with how many flows.
struct LinkUser {
  std::size_t ring;
  std::size_t use; // index into the ring's links
};

// What each ring's flows get on each of its links (by ring, then by use), each ring at most
// `limit(ring, use)` (what the rest of its path allows).
template <class Limit>
std::vector<std::vector<double>> solve_links(std::span<const SharedLink> links, std::span<const RingOnLinks> rings,
                                             const std::vector<std::vector<LinkUser>>& users, PhaseAlignment alignment,
                                             Limit limit)
{
  std::vector<std::vector<double>> got(rings.size());
  for (std::size_t r = 0; r < rings.size(); ++r)
    got[r].assign(rings[r].links.size(), INF);
  std::vector<Burst> senders;
  for (std::size_t l = 0; l < links.size(); ++l) {
    if (users[l].empty())
      continue;
    senders.clear();
    for (const LinkUser& u : users[l]) {
      const RingOnLinks& ring = rings[u.ring];
      const double k = ring.links[u.use].flows;
      Burst b = ring.burst;
      b.critical_bytes *= k;
      b.hidden_bytes *= k;
      b.peak_Bps = k * limit(u.ring, u.use);
      senders.push_back(b);
    }
    for (const double rate : links[l].steady_Bps)
      if (rate > 0)
        senders.push_back(steady(rate));
    const std::vector<double> rates = burst_rates(senders, links[l].capacity_Bps, alignment);
    for (std::size_t i = 0; i < users[l].size(); ++i) {
      const LinkUser& u = users[l][i];
      got[u.ring][u.use] = rates[i] / rings[u.ring].links[u.use].flows;
    }
  }
  return got;
}

} // namespace

std::vector<double> ring_rates(std::span<const SharedLink> links, std::span<const RingOnLinks> rings,
                               PhaseAlignment alignment)
{
  std::vector<std::vector<LinkUser>> users(links.size());
  for (std::size_t r = 0; r < rings.size(); ++r) {
    if (!(rings[r].burst.peak_Bps > 0))
      throw std::invalid_argument("ring_rates: a ring needs a peak rate > 0");
    for (std::size_t u = 0; u < rings[r].links.size(); ++u) {
      const RingOnLinks::Use& use = rings[r].links[u];
      if (use.link >= links.size() || use.flows < 1)
        throw std::invalid_argument("ring_rates: a ring uses a link that is not given, or no flow of it");
      users[use.link].push_back(LinkUser{r, u});
    }
  }
  for (const SharedLink& link : links)
    if (!(link.capacity_Bps > 0))
      throw std::invalid_argument("ring_rates: a link needs a capacity > 0");

  // What each ring gets on each of its links with no other ring there (the link's capacity and
  // its steady flows): the most it can send anywhere else while one link is shared.
  std::vector<std::vector<double>> alone(rings.size());
  for (std::size_t r = 0; r < rings.size(); ++r)
    for (const RingOnLinks::Use& use : rings[r].links) {
      const SharedLink& link = links[use.link];
      std::vector<double> peaks{use.flows * rings[r].burst.peak_Bps};
      peaks.insert(peaks.end(), link.steady_Bps.begin(), link.steady_Bps.end());
      alone[r].push_back(max_min_share(peaks, 0, link.capacity_Bps) / use.flows);
    }
  // Only capacities limit a ring's peak on the other links, not the other rings: a rival's bursts
  // leave every link the two share at the same moments.
  const auto elsewhere = [&](std::size_t r, std::size_t use) {
    double least = rings[r].burst.peak_Bps;
    for (std::size_t u = 0; u < alone[r].size(); ++u)
      if (u != use)
        least = std::min(least, alone[r][u]);
    return least;
  };
  const std::vector<std::vector<double>> got = solve_links(links, rings, users, alignment, elsewhere);
  std::vector<double> rates(rings.size());
  for (std::size_t r = 0; r < rings.size(); ++r) {
    rates[r] = rings[r].burst.peak_Bps;
    for (const double on_link : got[r])
      rates[r] = std::min(rates[r], on_link);
  }
  return rates;
}

} // namespace acmesim
