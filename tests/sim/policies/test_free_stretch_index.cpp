// The index of free stretches against a plain list of the same stretches, searched whole.
#include "sim/policies/FreeStretchIndex.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace acmesim;

namespace {

// The earliest start after `now` among stretches that hold `duration` (reckoned as the timeline
// reckons a window: to >= from + duration), and the nodes of those that start then, by reading
// every stretch.
std::optional<FreeStretchIndex::Starts> earliest_by_hand(const std::vector<FreeStretch>& stretches, double now,
                                                         double duration)
{
  std::optional<FreeStretchIndex::Starts> found;
  for (const FreeStretch& s : stretches) {
    if (s.from <= now || s.to < s.from + duration || (found && s.from > found->at))
      continue;
    if (!found || s.from < found->at)
      found = FreeStretchIndex::Starts{s.from, {}};
    found->nodes.push_back(s.node);
  }
  if (found)
    std::sort(found->nodes.begin(), found->nodes.end());
  return found;
}

} // namespace

TEST_CASE("free stretch index: the earliest long-enough stretch, as a search of every stretch finds it")
{
  // Enough stretches that blocks split and empty out; starts on a coarse grid so that several
  // nodes often start at once; some stretches never end. Times are late in a run and in a
  // fractional unit, so that a length and a window's end round differently.
  constexpr double kLate = 3626698.7941741925, kUnit = 1109.0061946942517;
  std::mt19937 random(5);
  FreeStretchIndex index;
  std::vector<FreeStretch> kept;
  const auto any_stretch = [&] {
    const double from = kLate + std::uniform_int_distribution<int>(0, 200)(random) * kUnit;
    const bool open_ended = std::bernoulli_distribution(0.1)(random);
    const double to = open_ended ? std::numeric_limits<double>::infinity()
                                 : from + std::uniform_int_distribution<int>(1, 60)(random) * kUnit;
    return FreeStretch{from, to, static_cast<NodeId>(std::uniform_int_distribution<int>(0, 400)(random))};
  };
  const auto same_key = [](const FreeStretch& a, const FreeStretch& b) { return a.from == b.from && a.node == b.node; };
  for (int step = 0; step < 4000; ++step) {
    const bool grow = kept.size() < 300 || (kept.size() < 1200 && std::bernoulli_distribution(0.6)(random));
    if (step == 2000) { // and once in one go, as a new timeline's first question does
      index.assign(kept);
    } else if (grow) {
      const FreeStretch s = any_stretch();
      if (std::any_of(kept.begin(), kept.end(), [&](const FreeStretch& k) { return same_key(k, s); }))
        continue;
      index.insert(s);
      kept.push_back(s);
    } else {
      const auto at = kept.begin() + std::uniform_int_distribution<std::ptrdiff_t>(0, std::ssize(kept) - 1)(random);
      index.erase(*at);
      kept.erase(at);
    }
    REQUIRE(index.size() == kept.size());
    const double now = kLate + std::uniform_int_distribution<int>(0, 220)(random) * kUnit;
    const double duration = std::uniform_int_distribution<int>(1, 80)(random) * kUnit;
    INFO("step " << step << ": after " << now << " for " << duration);
    const auto found = index.earliest_after(now, duration);
    const auto by_hand = earliest_by_hand(kept, now, duration);
    REQUIRE(found.has_value() == by_hand.has_value());
    if (found) {
      CHECK(found->at == by_hand->at);
      CHECK(found->nodes == by_hand->nodes);
    }
  }
}

TEST_CASE("free stretch index: erasing a stretch it does not hold is a logic error")
{
  FreeStretchIndex index;
  CHECK_THROWS_AS(index.erase({0, 10, 1}), std::logic_error);
  index.insert({0, 10, 1});
  CHECK_THROWS_AS(index.erase({0, 10, 2}), std::logic_error);
  index.erase({0, 10, 1});
  CHECK(index.size() == 0);
  CHECK_FALSE(index.earliest_after(-1, 1));
}
