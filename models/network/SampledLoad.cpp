#include "models/network/SampledLoad.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace acmesim {

namespace {

constexpr int FIRST_TRAIN_PHASES = 64; // with two trains, the first's phases on this grid

// A train seen through a window of `window_s`: the window holds `whole` periods' bursts, whatever the
// phase, and of the `rest` of it past them a part that the phase decides.
struct Seen {
  const BurstTrain& train;
  double whole_on_s;
  double rest_s;

  Seen(const BurstTrain& t, double window_s) : train(t)
  {
    const double whole = std::floor(window_s / t.period_s);
    whole_on_s = whole * t.on_s;
    rest_s = window_s - whole * t.period_s;
  }

  // Seconds of burst in [0, rest) when bursts start at `phase` (and every period from there): the
  // burst starting at the phase, and the one before it, which may reach past 0.
  double partial_s(double phase) const
  {
    const double b = train.on_s, T = train.period_s;
    return std::max(0.0, std::min(rest_s - phase, b)) + std::max(0.0, std::min(rest_s, phase + b - T));
  }
  double on_s(double phase) const { return whole_on_s + partial_s(phase); }

  // The share of phases, uniform over the period, at which the window holds more than `x` seconds
  // of burst. partial_s is piecewise linear in the phase, with its corners among six points, so on
  // each piece between them the share above a level is read off the two ends.
  double share_above(double x) const
  {
    const double y = x - whole_on_s;
    if (y < 0)
      return 1;
    const double b = train.on_s, T = train.period_s;
    std::array<double, 6> corners{0, rest_s - b, rest_s, T - b, T - b + rest_s, T};
    for (double& c : corners)
      c = std::clamp(c, 0.0, T);
    std::sort(corners.begin(), corners.end());
    // Rounding leaves a flat piece at the level (none of a window in a gap between bursts) a hair
    // above or below it, which would count the whole piece: differences within a billionth of the
    // period are none.
    const double tolerance = 1e-9 * T;
    const auto over = [&](double phase) {
      const double d = partial_s(phase) - y;
      return std::abs(d) < tolerance ? 0.0 : d;
    };
    double above = 0;
    for (std::size_t i = 0; i + 1 < corners.size(); ++i) {
      const double u = corners[i], v = corners[i + 1];
      if (v <= u)
        continue;
      const double du = over(u), dv = over(v);
      if (du > 0 && dv > 0)
        above += v - u;
      else if (du > 0 || dv > 0)
        above += (v - u) * std::max(du, dv) / std::abs(dv - du);
    }
    return above / T;
  }
};

} // namespace

WindowShares window_shares(double steady_Bps, std::span<const BurstTrain> trains, double window_s,
                           double threshold_Bps)
{
  if (!(window_s > 0))
    throw std::invalid_argument("window_shares: a window needs a length > 0");
  // Trains that carry nothing are no traffic, those that never stop are steady; the two that
  // carry most are followed through the window.
  std::vector<BurstTrain> busy;
  double steady = steady_Bps;
  for (const BurstTrain& train : trains)
    if (train.on_Bps > 0 && train.on_s > 0 && train.period_s > 0) {
      if (train.on_s >= train.period_s)
        steady += train.on_Bps;
      else
        busy.push_back(train);
    }
  std::stable_sort(busy.begin(), busy.end(),
                   [](const BurstTrain& a, const BurstTrain& b) { return a.mean_Bps() > b.mean_Bps(); });
  for (std::size_t i = 2; i < busy.size(); ++i)
    steady += busy[i].mean_Bps();
  busy.resize(std::min<std::size_t>(busy.size(), 2));

  if (busy.empty())
    return {steady > 0 ? 0.0 : 1.0, steady > threshold_Bps ? 1.0 : 0.0};
  // The last train's seconds in the window above which the window reads above the threshold, given
  // what the others put in it.
  const Seen last(busy.back(), window_s);
  const auto last_needed_s = [&](double others_bytes) {
    return ((threshold_Bps - steady) * window_s - others_bytes) / last.train.on_Bps;
  };
  if (busy.size() == 1) {
    const double idle = steady > 0 ? 0 : 1 - last.share_above(0);
    return {idle, last.share_above(last_needed_s(0))};
  }
  const Seen first(busy.front(), window_s);
  WindowShares shares;
  for (int i = 0; i < FIRST_TRAIN_PHASES; ++i) {
    const double phase = (i + 0.5) * first.train.period_s / FIRST_TRAIN_PHASES;
    const double first_s = first.on_s(phase);
    if (steady <= 0 && first_s <= 0)
      shares.idle += 1 - last.share_above(0);
    shares.above += last.share_above(last_needed_s(first.train.on_Bps * first_s));
  }
  shares.idle /= FIRST_TRAIN_PHASES;
  shares.above /= FIRST_TRAIN_PHASES;
  return shares;
}

} // namespace acmesim
