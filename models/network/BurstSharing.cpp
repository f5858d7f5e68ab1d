#include "models/network/BurstSharing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace acmesim {

namespace {

// The rates are solved with the steps they make: stop when none moves by more than this share.
constexpr double TOLERANCE = 1e-10;
constexpr int MAX_ITERATIONS = 2000;

// How much longer job `who`'s burst lasts per second of a burst of `other`'s that it meets: its
// rate alone over its rate while both send, less 1 (1 for two jobs that each fill the link, 0 for
// two that fit side by side).
double stretch_when_meeting(std::span<const Burst> bursts, std::size_t who, std::size_t other, double capacity)
{
  const double pair[] = {bursts[who].peak_Bps, bursts[other].peak_Bps};
  return std::min(bursts[who].peak_Bps, capacity) / max_min_share(pair, 0, capacity) - 1;
}

// A job's rate while it sends, the others' phases at random. For two jobs whose bursts each fill
// the link and fit in their steps, averaging over the offset between them gives exactly
//   burst = alone * (1 + x),  x = the other's seconds of sending alone / its step
// (docs/network.md). With more jobs, each other job's meetings stretch the burst in the same
// way, but a longer burst meets more of them: taking the others' stretches as shares of the
// burst, burst = alone / (1 - sum of x / (1 + x)). Never below the rate of lock-step bursts.
// `stretch` is who's row of stretch_when_meeting.
double random_rate(std::span<const Burst> bursts, const std::vector<double>& alone, const std::vector<double>& rates,
                   std::size_t who, std::span<const double> stretch, double aligned)
{
  double stretched = 0;
  for (std::size_t i = 0; i < bursts.size(); ++i) {
    if (i == who || bursts[i].bytes() <= 0)
      continue;
    const double sending_alone = bursts[i].bytes() / alone[i] / bursts[i].step_s(rates[i]);
    const double x = stretch[i] * sending_alone;
    stretched += x / (1 + x);
  }
  return std::max(aligned, alone[who] * (1 - stretched));
}

// A rate that falls makes steps longer and the job's share of the link smaller, which raises the
// others' rates: the iteration could swing, so each step goes half way.
template <class Next> std::vector<double> settle(std::vector<double> rates, Next next)
{
  for (int iteration = 0; iteration < MAX_ITERATIONS; ++iteration) {
    const std::vector<double> moved = next(rates);
    double change = 0;
    for (std::size_t i = 0; i < rates.size(); ++i) {
      change = std::max(change, std::abs(moved[i] - rates[i]) / rates[i]);
      rates[i] = (rates[i] + moved[i]) / 2;
    }
    if (change <= TOLERANCE)
      break;
  }
  return rates;
}

} // namespace

double Burst::step_s(double rate_Bps) const
{
  if (bytes() <= 0)
    return base_s;
  if (!(rate_Bps > 0))
    return std::numeric_limits<double>::infinity();
  return base_s + critical_bytes / rate_Bps + std::max(0.0, hidden_bytes / rate_Bps - window_s);
}

double Burst::duty(double rate_Bps) const
{
  if (bytes() <= 0)
    return 0;
  const double step = step_s(rate_Bps);
  return std::isfinite(step) ? bytes() / rate_Bps / step : 1;
}

double max_min_share(std::span<const double> peaks, std::size_t who, double capacity_Bps)
{
  std::vector<std::size_t> order(peaks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return peaks[a] < peaks[b]; });
  double left = capacity_Bps;
  for (std::size_t n = 0; n < order.size(); ++n) {
    const double fair = left / static_cast<double>(order.size() - n);
    if (peaks[order[n]] > fair)
      return std::min(peaks[who], fair); // the level every job from here on gets
    if (order[n] == who)
      return peaks[who];
    left -= peaks[order[n]];
  }
  return peaks[who];
}

std::vector<double> burst_rates(std::span<const Burst> bursts, double capacity_Bps, PhaseAlignment alignment)
{
  if (!(capacity_Bps > 0))
    throw std::invalid_argument("burst_rates: a link needs a capacity > 0");
  std::vector<double> alone(bursts.size());
  for (std::size_t i = 0; i < bursts.size(); ++i) {
    if (!(bursts[i].peak_Bps > 0))
      throw std::invalid_argument("burst_rates: a job needs a peak rate > 0");
    alone[i] = std::min(bursts[i].peak_Bps, capacity_Bps);
  }
  // Lock-step: every job that has bytes sends at once.
  std::vector<double> peaks;
  for (const Burst& b : bursts)
    peaks.push_back(b.bytes() > 0 ? b.peak_Bps : 0);
  std::vector<double> aligned(bursts.size());
  for (std::size_t i = 0; i < bursts.size(); ++i)
    aligned[i] = bursts[i].bytes() > 0 ? max_min_share(peaks, i, capacity_Bps) : alone[i];
  // Interleaved: what each takes of the link's time at its rate alone; a job whose peak is half
  // the link leaves room for another beside it. The best any placing of the phases can do.
  const auto interleaved = [&] {
    return settle(alone, [&](const std::vector<double>& rates) {
      double load = 0;
      for (std::size_t i = 0; i < rates.size(); ++i)
        load += std::min(1.0, bursts[i].duty(rates[i])) * alone[i] / capacity_Bps;
      std::vector<double> next(rates.size());
      // A job whose peak fits under its fair share of lock-step sending keeps that much.
      for (std::size_t i = 0; i < rates.size(); ++i)
        next[i] = std::max(aligned[i], alone[i] / std::max(1.0, load));
      return next;
    });
  };
  switch (alignment) {
  case PhaseAlignment::Aligned:
    return aligned;
  case PhaseAlignment::Interleaved:
    return interleaved();
  case PhaseAlignment::Random: {
    // A pair's stretch depends on the peaks only: worked out once, not at every iteration.
    const std::size_t n = bursts.size();
    std::vector<double> stretch(n * n, 0);
    for (std::size_t who = 0; who < n; ++who)
      for (std::size_t other = 0; other < n; ++other)
        if (other != who)
          stretch[who * n + other] = stretch_when_meeting(bursts, who, other, capacity_Bps);
    // On a link the bursts overload (more bytes a step than it carries), the pairwise sum
    // overestimates the rates: no placing of the phases does better than interleaving them.
    const std::vector<double> best = interleaved();
    return settle(alone, [&](const std::vector<double>& rates) {
      std::vector<double> next(n);
      for (std::size_t i = 0; i < n; ++i)
        next[i] = std::max(aligned[i], std::min(best[i], random_rate(bursts, alone, rates, i,
                                                                      std::span(stretch).subspan(i * n, n), aligned[i])));
      return next;
    });
  }
  }
  throw std::logic_error("burst_rates: unknown alignment");
}

} // namespace acmesim
