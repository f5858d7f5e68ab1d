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
// A job silent for less than this share of its step always sends (a steady flow).
constexpr double ALWAYS = 1e-9;

// Job `who`'s rate when `m` jobs send at once, itself among them, the others at `others_peak`:
// max-min with two peaks has a closed form.
double share_among(double who_peak, double others_peak, int m, double capacity)
{
  const double fair = capacity / m;
  if (std::min(who_peak, others_peak) >= fair)
    return fair;
  if (who_peak <= others_peak)
    return who_peak;
  return std::min(who_peak, capacity - (m - 1) * others_peak);
}

// A job's mean rate while it sends, the others' phases at random. The link is a processor-sharing
// server and each job a source that is silent for its step less its burst, then sends its bytes:
// a closed network whose stationary state has product form (Baskett, Chandy, Muntz and Palacios,
// JACM 1975), the same whatever the distributions of the silent and sending times. A set S of jobs
// sends at once with a probability proportional to the product over S of (bytes / silent time)
// over the product of the rates that 1, 2, ..., |S| jobs sending get; from the probability P that
// `who` sends, its bursts last silent * P / (1 - P) (Little's law), whence its rate. Every number
// of jobs sending at once is counted, so bursts that fit two at a time still meet three at a time.
// A job never silent (a steady flow) sends in every state. Rates with others at other peaks take
// them at the mean of their peaks, weighted by the time they send (exact when the peaks are the
// same, as a pod's rings' are). Against an event-by-event simulation: docs/network.md.
double random_rate(std::span<const Burst> bursts, const std::vector<double>& alone, const std::vector<double>& rates,
                   std::size_t who, double capacity)
{
  const auto silent_s = [&](std::size_t i) { return bursts[i].step_s(rates[i]) - bursts[i].bytes() / rates[i]; };
  const auto always_sends = [&](std::size_t i) { return silent_s(i) <= ALWAYS * bursts[i].step_s(rates[i]); };
  // The others that come and go, as their load in who's seconds alone per second of silence; how
  // many always send; and the others' peaks, weighted by the share of time they send.
  std::vector<double> load;
  int steady = 0;
  double peak_sum = 0, duty_sum = 0;
  for (std::size_t i = 0; i < bursts.size(); ++i) {
    if (i == who || bursts[i].bytes() <= 0)
      continue;
    const double duty = std::min(1.0, bursts[i].duty(rates[i]));
    peak_sum += duty * bursts[i].peak_Bps;
    duty_sum += duty;
    if (always_sends(i))
      ++steady;
    else
      load.push_back(bursts[i].bytes() / alone[who] / silent_s(i));
  }
  if (duty_sum <= 0)
    return alone[who];
  // relative[k]: who's rate over its rate alone when it sends with k of the others that come and go.
  std::vector<double> relative(load.size() + 1);
  for (std::size_t k = 0; k < relative.size(); ++k)
    relative[k] = share_among(bursts[who].peak_Bps, peak_sum / duty_sum, static_cast<int>(k) + steady + 1, capacity) /
                  alone[who];
  // weight[k]: the sets of k of them sending, each its loads' product over the rates of 1..k
  // senders (who not among them); rescaled as it grows, since only ratios are read.
  std::vector<double> weight{1.0};
  for (const double l : load) {
    weight.push_back(0);
    for (std::size_t k = weight.size() - 1; k > 0; --k)
      weight[k] += l * weight[k - 1] / relative[k - 1];
    const double largest = *std::max_element(weight.begin(), weight.end());
    for (double& w : weight)
      w /= largest;
  }
  double silent = 0, sending = 0;
  for (std::size_t k = 0; k < weight.size(); ++k) {
    silent += weight[k];
    sending += weight[k] / relative[k];
  }
  // A job that always sends gets, on average over time, the rate of each state it is in.
  if (always_sends(who))
    return alone[who] * silent / sending;
  const double odds = bursts[who].bytes() / alone[who] / silent_s(who) * sending / silent; // P / (1 - P)
  return bursts[who].bytes() / (silent_s(who) * odds);
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
    // Never below lock-step, and never above the best placing of the phases.
    const std::vector<double> best = interleaved();
    return settle(alone, [&](const std::vector<double>& rates) {
      std::vector<double> next(bursts.size());
      for (std::size_t i = 0; i < bursts.size(); ++i)
        next[i] = bursts[i].bytes() > 0 ? std::max(aligned[i], std::min(best[i], random_rate(bursts, alone, rates, i,
                                                                                              capacity_Bps)))
                                        : alone[i];
      return next;
    });
  }
  }
  throw std::logic_error("burst_rates: unknown alignment");
}

} // namespace acmesim
