// Rings over several links, against values worked out by hand. Capacities are in units of a
// link (1 unless said), times in seconds.
#include "models/network/FabricSharing.hpp"
#include "tests/support/Bursts.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using namespace acmesim;
using acmesim::testing::exposed;

namespace {

RingOnLinks ring(const Burst& burst, std::vector<RingLink> links) { return RingOnLinks{burst, std::move(links)}; }

} // namespace

TEST_CASE("fabric: a ring alone gets the least of its peak and its links")
{
  const std::vector<SharedLink> links = {{1.0, {}}, {0.25, {}}, {4.0, {}}};
  const std::vector<RingOnLinks> rings = {ring(exposed(1, 1), {{0, 1}, {1, 1}, {2, 1}}),
                                          ring(exposed(1, 1, 0.5), {{0, 1}})};
  for (const PhaseAlignment a : {PhaseAlignment::Random, PhaseAlignment::Aligned, PhaseAlignment::Interleaved}) {
    CHECK(ring_rates(links, std::vector<RingOnLinks>{rings[0]}, a)[0] == Approx(0.25));
    CHECK(ring_rates(links, std::vector<RingOnLinks>{rings[1]}, a)[0] == Approx(0.5));
  }
}

TEST_CASE("fabric: a ring whose flows cross one link twice shares it between them")
{
  // A spread ring over two leaves crosses each leaf's uplink once each way; a ring over four
  // nodes, two a leaf, alternating, crosses each direction twice: each flow gets half of it.
  const std::vector<SharedLink> links = {{1.0, {}}};
  const std::vector<RingOnLinks> rings = {ring(exposed(0, 1, 1), {{0, 2}})};
  for (const PhaseAlignment a : {PhaseAlignment::Random, PhaseAlignment::Aligned, PhaseAlignment::Interleaved})
    CHECK(ring_rates(links, rings, a)[0] == Approx(0.5));
}

TEST_CASE("fabric: two rings on one link, aligned, at random and interleaved")
{
  // Each computes 1 s, then sends 1 s of the link on its critical path (BurstSharing's hand case):
  // aligned both send at half the link, a step of 3 s; interleaved each sends alone, 2 s; at random
  // 2.5 s. The rings' other links (their own NICs, of 4) do not bind.
  const std::vector<SharedLink> links = {{1.0, {}}, {4.0, {}}, {4.0, {}}};
  const Burst b = exposed(1, 1, 4);
  const std::vector<RingOnLinks> rings = {ring(b, {{0, 1}, {1, 1}}), ring(b, {{0, 1}, {2, 1}})};
  const auto aligned = ring_rates(links, rings, PhaseAlignment::Aligned);
  const auto interleaved = ring_rates(links, rings, PhaseAlignment::Interleaved);
  const auto random = ring_rates(links, rings, PhaseAlignment::Random);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(b.step_s(aligned[i]) == Approx(3));
    CHECK(b.step_s(interleaved[i]) == Approx(2).epsilon(1e-6));
    CHECK(b.step_s(random[i]) == Approx(2.5).epsilon(1e-6));
  }
}

TEST_CASE("fabric: a ring held back on one link leaves the rest of a shared link to the other")
{
  // Ring A crosses links 0 (1) and 1 (0.2); ring B only link 0. Both always send (no compute).
  // On link 0 alone they would halve it; A cannot use more than 0.2, so B gets 0.8: max-min.
  const std::vector<SharedLink> links = {{1.0, {}}, {0.2, {}}};
  const std::vector<RingOnLinks> rings = {ring(exposed(0, 1), {{0, 1}, {1, 1}}), ring(exposed(0, 1), {{0, 1}})};
  const auto rates = ring_rates(links, rings, PhaseAlignment::Aligned);
  CHECK(rates[0] == Approx(0.2));
  CHECK(rates[1] == Approx(0.8));
}

TEST_CASE("fabric: a storage flow on a ring's link takes its max-min share of each burst")
{
  // A checkpoint upload going at 0.9 of a link (what SimGrid gave it beside the ring's mean) and
  // a ring that bursts at up to the whole link: while the ring sends they halve the link. A
  // slow upload (0.2) leaves the ring the rest, 0.8, and one of 0.6 leaves it half.
  const Burst b = exposed(1, 0.5);
  for (const auto& [upload, expected] : std::vector<std::pair<double, double>>{{0.9, 0.5}, {0.2, 0.8}, {0.6, 0.5}}) {
    const std::vector<SharedLink> links = {{1.0, {upload}}};
    const std::vector<RingOnLinks> rings = {ring(b, {{0, 1}})};
    for (const PhaseAlignment a : {PhaseAlignment::Random, PhaseAlignment::Aligned})
      CHECK(ring_rates(links, rings, a)[0] == Approx(expected).epsilon(1e-6));
  }
}

TEST_CASE("fabric: a ring without a peak, or a link it uses that is not given, is refused")
{
  const std::vector<SharedLink> links = {{1.0, {}}};
  CHECK_THROWS_AS(ring_rates(links, std::vector<RingOnLinks>{ring(exposed(1, 1, 0), {{0, 1}})}, PhaseAlignment::Random),
                  std::invalid_argument);
  CHECK_THROWS_AS(ring_rates(links, std::vector<RingOnLinks>{ring(exposed(1, 1), {{1, 1}})}, PhaseAlignment::Random),
                  std::invalid_argument);
  CHECK_THROWS_AS(ring_rates(links, std::vector<RingOnLinks>{ring(exposed(1, 1), {{0, 0}})}, PhaseAlignment::Random),
                  std::invalid_argument);
}

TEST_CASE("fabric: solved again only where rings or steady flows changed, the rates are those of a fresh solve")
{
  // Three links, three rings; rings come and go and a storage flow starts and stops, and after
  // each change every rate equals what a new FabricShares finds from scratch.
  const std::vector<double> capacities{1.0, 0.6, 2.0};
  const std::vector<Burst> bursts{exposed(1, 1, 1.5), exposed(2, 1), exposed(0.5, 0.25, 0.8)};
  const std::vector<std::vector<RingLink>> uses{{{0, 1}, {1, 1}}, {{0, 2}, {2, 1}}, {{1, 1}, {2, 1}}};
  FabricShares shares(PhaseAlignment::Random);
  for (const double c : capacities)
    shares.add_link(c);
  std::vector<double> steady(capacities.size(), 0);
  std::vector<bool> present(bursts.size(), false);
  const auto check = [&] {
    FabricShares fresh(PhaseAlignment::Random);
    for (std::size_t l = 0; l < capacities.size(); ++l) {
      fresh.add_link(capacities[l]);
      if (steady[l] > 0)
        fresh.set_steady(l, std::vector<double>{steady[l]});
    }
    for (std::size_t r = 0; r < bursts.size(); ++r)
      if (present[r])
        fresh.add_ring(r, bursts[r], uses[r]);
    for (std::size_t r = 0; r < bursts.size(); ++r)
      if (present[r])
        CHECK(shares.rate_Bps(r) == Approx(fresh.rate_Bps(r)).epsilon(1e-9));
  };
  const auto toggle = [&](std::size_t r) {
    if (present[r])
      shares.remove_ring(r);
    else
      shares.add_ring(r, bursts[r], uses[r]);
    present[r] = !present[r];
    check();
  };
  const auto load = [&](std::size_t l, double rate) {
    steady[l] = rate;
    shares.set_steady(l, rate > 0 ? std::vector<double>{rate} : std::vector<double>{});
    check();
  };
  toggle(0);
  toggle(1);
  toggle(2);
  load(1, 0.4);
  toggle(0);
  load(0, 0.3);
  toggle(0);
  load(1, 0);
  toggle(1);
  toggle(2);
  load(2, 1.5);
  toggle(1);
}

TEST_CASE("fabric: what rings hold of a link beside storage flows is their mean load up to their weighted max-min "
          "share")
{
  using Demands = std::vector<RingDemand>;
  // Nothing else on it: all they carry, at most the link.
  CHECK(rings_hold_Bps(Demands{{1, 0.2}, {1, 0.3}}, 0, 1) == Approx(0.5));
  CHECK(rings_hold_Bps(Demands{{1, 0.7}, {1, 0.6}}, 0, 1) == Approx(1));
  // Loads under the fair level (1/3 with one storage flow) are held whole: 0.5, storage 0.5.
  CHECK(rings_hold_Bps(Demands{{1, 0.2}, {1, 0.3}}, 1, 1) == Approx(0.5));
  // 0.1 is held; 0.9 left to two flows: the 0.6 ring gets 0.45, so 0.55 held, storage 0.45.
  CHECK(rings_hold_Bps(Demands{{1, 0.6}, {1, 0.1}}, 1, 1) == Approx(0.55));
  // Both above a quarter with two storage flows: a quarter each, half held.
  CHECK(rings_hold_Bps(Demands{{1, 0.5}, {1, 0.9}}, 2, 1) == Approx(0.5));
  // A ring flow and the acknowledgements of its neighbour's (weight 1.05) beside one upload: both
  // rise to x with 1.05 x + x = 1, so the ring holds 1.05 / 2.05 (SimGrid's cross traffic).
  CHECK(rings_hold_Bps(Demands{{1.05, 0.9}}, 1, 1) == Approx(1.05 / 2.05));
  // Two flows of one ring (weight 2) under the level: held whole.
  CHECK(rings_hold_Bps(Demands{{2, 0.1}}, 1, 1) == Approx(0.2));
  CHECK(rings_hold_Bps(Demands{}, 3, 1) == 0);
}
