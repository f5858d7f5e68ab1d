#include "sim/run/Ledger.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace acmesim {

Ledger::Ledger(int total_gpus, double start_s) : total_gpus_(total_gpus), start_s_(start_s), now_s_(start_s)
{
  counts_[index(GpuState::Idle)] = total_gpus;
}

void Ledger::enable_series(double bin_s, std::size_t max_bins)
{
  if (!(bin_s > 0) || !std::isfinite(bin_s))
    throw std::logic_error("ledger: series bins must have a finite width > 0, not " + std::to_string(bin_s));
  if (now_s_ != start_s_)
    throw std::logic_error("ledger: the series must be enabled before time is accounted");
  bin_s_ = bin_s;
  max_bins_ = max_bins;
}

void Ledger::advance_to(double now_s)
{
  if (now_s < now_s_)
    throw std::logic_error("ledger asked to go back in time from " + std::to_string(now_s_) + " to " +
                           std::to_string(now_s));
  const double dt = now_s - now_s_;
  if (dt > 0 && bin_s_ > 0 && !series_.empty() && now_s <= series_bin_end_) {
    // Within the latest bin (most calls on the hot path): totals and bin in one pass.
    StateSeconds& bin = series_.back();
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      const double gpu_seconds = counts_[i] * dt;
      seconds_[i] += gpu_seconds;
      bin[i] += gpu_seconds;
    }
  } else if (dt > 0) {
    for (std::size_t i = 0; i < counts_.size(); ++i)
      seconds_[i] += counts_[i] * dt;
    if (bin_s_ > 0)
      add_to_series(now_s_, now_s);
  }
  now_s_ = now_s;
}

void Ledger::add_to_series(double from_s, double to_s)
{
  // Bins open lazily as time reaches them, so the last one ends at the current time. Most calls
  // stay within the latest bin: one pass of the loop.
  while (from_s < to_s) {
    if (series_.empty() || from_s >= series_bin_end_) {
      if (max_bins_ > 0 && series_.size() == max_bins_)
        throw SeriesLimitReached(bin_s_, max_bins_, to_s);
      series_.emplace_back(); // zeroed
      series_bin_end_ = bin_start(series_.size());
      if (!(series_bin_end_ > from_s)) // a width below the resolution of the time: would never end
        throw std::logic_error("ledger: series bins of " + std::to_string(bin_s_) + " s are too narrow at time " +
                               std::to_string(from_s));
    }
    const double stop = std::min(to_s, series_bin_end_);
    const double dt = stop - from_s;
    StateSeconds& bin = series_.back();
    for (std::size_t i = 0; i < counts_.size(); ++i)
      bin[i] += counts_[i] * dt;
    from_s = stop;
  }
}

void Ledger::move(GpuState from, GpuState to, int gpus)
{
  if (gpus < 0 || counts_[index(from)] < gpus)
    throw std::logic_error("ledger: cannot move " + std::to_string(gpus) + " GPUs out of state " +
                           std::string(to_string(from)) + " holding " + std::to_string(counts_[index(from)]));
  counts_[index(from)] -= gpus;
  counts_[index(to)] += gpus;
}

void Ledger::reclassify(GpuState from, GpuState to, double gpu_seconds)
{
  reclassify(from, to, gpu_seconds, now_s_, now_s_);
}

void Ledger::reclassify(GpuState from, GpuState to, double gpu_seconds, double since_s, double until_s)
{
  // A relative tolerance absorbs rounding of the sums that produced the amount.
  const double have = seconds_[index(from)];
  if (!(gpu_seconds >= 0) || gpu_seconds > have * (1 + 1e-9) + 1e-6) // NaN refused too
    throw std::logic_error("ledger: cannot re-attribute " + std::to_string(gpu_seconds) + " GPU-seconds out of " +
                           std::string(to_string(from)) + " holding " + std::to_string(have));
  const double amount = std::min(gpu_seconds, have);
  seconds_[index(from)] -= amount;
  seconds_[index(to)] += amount;
  if (bin_s_ > 0)
    reclassify_in_series(index(from), index(to), amount, since_s, until_s);
}

std::size_t Ledger::bin_of(double t) const
{
  const double k = std::floor((t - start_s_) / bin_s_);
  if (!(k > 0))
    return 0;
  return std::min(static_cast<std::size_t>(k), series_.size() - 1);
}

void Ledger::reclassify_in_series(std::size_t from, std::size_t to, double amount, double since_s, double until_s)
{
  if (series_.empty() || !(amount > 0))
    return;
  double left = amount;
  // Never more than a bin holds, so no bin goes negative; the column sums stay the totals.
  const auto take = [&](std::size_t k, double want) {
    double& have = series_[k][from];
    const double moved = std::min(want, std::max(have, 0.0));
    if (!(moved > 0))
      return;
    have -= moved;
    series_[k][to] += moved;
    left -= moved;
  };
  since_s = std::max(since_s, start_s_);
  until_s = std::min(until_s, now_s_);
  if (until_s > since_s) {
    const double rate = amount / (until_s - since_s);
    for (std::size_t k = bin_of(since_s); k < series_.size() && bin_start(k) < until_s; ++k) {
      const double overlap = std::min(until_s, bin_start(k + 1)) - std::max(since_s, bin_start(k));
      if (overlap > 0)
        take(k, rate * overlap);
    }
  }
  // What the window could not place (rounding, or time in the window the bins do not hold in
  // that state): from the latest bins back.
  for (std::size_t k = series_.size(); k-- > 0 && left > 0;)
    take(k, left);
}

double Ledger::total_gpu_seconds() const
{
  double total = 0;
  for (double s : seconds_)
    total += s;
  return total;
}

} // namespace acmesim
