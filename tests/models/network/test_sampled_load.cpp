// What a monitor that averages a link over windows reads (models/network/SampledLoad), worked out
// by hand: where in its period a train's burst falls decides what each window holds.
#include "models/network/SampledLoad.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace acmesim;

TEST_CASE("sampled load: a 6 s burst every 30 s read over 15 s windows: idle when the window falls in the gap, "
          "above a quarter when it holds more than 3.75 s of burst")
{
  // Window [0, 15), burst [p, p + 6) every 30 s, 10 GB/s: it reads 10 x (seconds of burst) / 15.
  //  - idle for p in [15, 24]: 9 s of 30;
  //  - above 2.5 GB/s (a quarter of 10) when the window holds more than 3.75 s of burst:
  //    p in [0, 11.25) or (27.75, 30): 13.5 s of 30.
  const std::vector<BurstTrain> train{{10e9, 6, 30}};
  const WindowShares shares = window_shares(0, train, 15, 2.5e9);
  CHECK(shares.idle == Approx(0.3));
  CHECK(shares.above == Approx(0.45));
}

TEST_CASE("sampled load: a train shorter than the window is never idle, and reads its mean only on average")
{
  // A 2 s burst every 10 s in 15 s windows: one whole period (2 s) plus 0 to 2 s of the next, so
  // the window reads between 2/15 and 4/15 of the burst rate, above 3/15 half the time.
  const std::vector<BurstTrain> train{{15e9, 2, 10}};
  const WindowShares shares = window_shares(0, train, 15, 3e9);
  CHECK(shares.idle == 0);
  CHECK(shares.above == Approx(0.5));
  // With a steady 1 GB/s beside it every window reads above 3 GB/s: 1 + 15 x 2/15 = 3 at least,
  // more in all but the windows that hold exactly one burst.
  CHECK(window_shares(1e9, train, 15, 2.9e9).above == 1);
}

TEST_CASE("sampled load: two trains at independent phases are idle together as often as the product of their gaps")
{
  const std::vector<BurstTrain> trains{{10e9, 6, 30}, {10e9, 6, 30}};
  const WindowShares shares = window_shares(0, trains, 15, 2.5e9);
  // The first train's phases on a grid of 64: 19 of its 64 slices' middles fall in its gap.
  CHECK(shares.idle == Approx(19.0 / 64 * 0.3));
  // Steady traffic alone: never idle, above the threshold or not as it is.
  CHECK(window_shares(1e9, {}, 15, 2.5e9).idle == 0);
  CHECK(window_shares(1e9, {}, 15, 2.5e9).above == 0);
  CHECK(window_shares(3e9, {}, 15, 2.5e9).above == 1);
  CHECK(window_shares(0, {}, 15, 2.5e9).idle == 1);
  CHECK_THROWS_AS(window_shares(0, {}, 0, 1), std::invalid_argument);
}

TEST_CASE("sampled load: one train's shares agree with counting 100,000 window positions, whatever the window, burst "
          "and period")
{
  // The count slides a window over a long stretch of the train, written out burst by burst, and
  // reads what each position holds: an independent computation of the same shares.
  struct Case {
    double on_s, period_s, window_s, threshold_Bps;
  };
  const std::vector<Case> cases{
      {6, 30, 15, 2.5e9}, {6, 10, 5, 3e9},   // the window and a burst cover more than a period
      {2, 10, 15, 3e9},   {9, 10, 15, 6e9},  // mostly on
      {1, 3, 15, 0.5e9},  {4, 7, 2, 1e9},   // many periods in a window; a window shorter than a burst
      {6.6, 27.87, 15.03, 1.29e8},          // a gap whose ends round a hair off zero
  };
  for (const Case& c : cases) {
    const BurstTrain train{10e9, c.on_s, c.period_s};
    const WindowShares shares = window_shares(0, std::vector<BurstTrain>{train}, c.window_s, c.threshold_Bps);
    const int positions = 100000;
    int idle = 0, above = 0;
    for (int i = 0; i < positions; ++i) {
      const double start = (i + 0.5) * c.period_s / positions;
      double on = 0; // seconds of burst in [start, start + window)
      for (double burst = 0; burst < start + c.window_s; burst += c.period_s)
        on += std::max(0.0, std::min(start + c.window_s, burst + c.on_s) - std::max(start, burst));
      idle += on <= 0 ? 1 : 0;
      above += train.on_Bps * on / c.window_s > c.threshold_Bps ? 1 : 0;
    }
    INFO("burst " << c.on_s << " s every " << c.period_s << " s, window " << c.window_s << " s");
    CHECK(shares.idle == Approx(static_cast<double>(idle) / positions).margin(1e-4));
    CHECK(shares.above == Approx(static_cast<double>(above) / positions).margin(1e-4));
  }
}
