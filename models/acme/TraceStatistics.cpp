#include "models/acme/TraceStatistics.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace acmesim {

namespace {

std::optional<double> percent_of(double part, double total)
{
  if (!(total > 0) || !std::isfinite(total) || !std::isfinite(part))
    return std::nullopt;
  return 100.0 * part / total;
}

// Powers of two from 2^0 up to 2^min_exponent, extended until the last one covers `max_value`.
std::vector<double> powers_of_two_covering(int min_exponent, std::optional<double> max_value)
{
  std::vector<double> points;
  double x = 1;
  for (int k = 0; k <= min_exponent; ++k, x *= 2)
    points.push_back(x);
  // A bounded loop: durations of real traces stay far below 2^60 s; the bound only guards
  // against a corrupt value (inf) hanging the report.
  while (max_value && points.back() < *max_value && points.size() < 64) {
    points.push_back(x);
    x *= 2;
  }
  return points;
}

// Sorts the samples of every group of a trace: O(n log n) overall.
struct GroupBuilder {
  std::vector<std::pair<double, double>> gpus;
  std::vector<std::pair<double, double>> durations;
  std::vector<std::pair<double, double>> waits;
  GroupStatistics stats;

  void add(const Job& job)
  {
    const double gpu_seconds = static_cast<double>(job.gpus) * job.duration_s;
    ++stats.jobs;
    stats.gpu_seconds += gpu_seconds;
    const auto s = static_cast<std::size_t>(job.final_state);
    ++stats.state_jobs[s];
    stats.state_gpu_seconds[s] += gpu_seconds;
    gpus.emplace_back(static_cast<double>(job.gpus), gpu_seconds);
    durations.emplace_back(job.duration_s, gpu_seconds);
    if (job.recorded_wait_s >= 0)
      waits.emplace_back(job.recorded_wait_s, gpu_seconds);
  }

  GroupStatistics finish()
  {
    stats.gpus = Distribution::from_samples(std::move(gpus));
    stats.duration_s = Distribution::from_samples(std::move(durations));
    stats.wait_s = Distribution::from_samples(std::move(waits));
    return std::move(stats);
  }
};

} // namespace

Distribution Distribution::from_samples(std::vector<std::pair<double, double>> samples)
{
  std::sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Distribution d;
  std::size_t jobs = 0;
  double gpu_seconds = 0;
  for (const auto& [value, weight] : samples) {
    ++jobs;
    gpu_seconds += weight;
    d.sum_ += value;
    if (d.values_.empty() || d.values_.back() != value) {
      d.values_.push_back(value);
      d.cumulative_jobs_.push_back(jobs);
      d.cumulative_gpu_seconds_.push_back(gpu_seconds);
    } else {
      d.cumulative_jobs_.back() = jobs;
      d.cumulative_gpu_seconds_.back() = gpu_seconds;
    }
  }
  return d;
}

std::optional<double> Distribution::cdf_percent(double x, CdfWeighting weighting) const
{
  const auto upto = std::upper_bound(values_.begin(), values_.end(), x) - values_.begin();
  if (weighting == CdfWeighting::Jobs) {
    const double part = upto == 0 ? 0.0 : static_cast<double>(cumulative_jobs_[upto - 1]);
    return percent_of(part, static_cast<double>(jobs()));
  }
  const double part = upto == 0 ? 0.0 : cumulative_gpu_seconds_[upto - 1];
  return percent_of(part, gpu_seconds());
}

double Distribution::value_at_rank(std::size_t rank) const
{
  const auto it = std::upper_bound(cumulative_jobs_.begin(), cumulative_jobs_.end(), rank);
  return values_[static_cast<std::size_t>(it - cumulative_jobs_.begin())];
}

std::optional<double> Distribution::quantile(double p) const
{
  if (empty() || !(p >= 0 && p <= 1))
    return std::nullopt;
  const double h = p * static_cast<double>(jobs() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const double frac = h - static_cast<double>(lo);
  const double a = value_at_rank(lo);
  if (frac == 0)
    return a;
  return a + frac * (value_at_rank(lo + 1) - a);
}

std::optional<double> Distribution::mean() const
{
  if (empty())
    return std::nullopt;
  return sum_ / static_cast<double>(jobs());
}

std::optional<double> Distribution::min() const
{
  if (empty())
    return std::nullopt;
  return values_.front();
}

std::optional<double> Distribution::max() const
{
  if (empty())
    return std::nullopt;
  return values_.back();
}

std::optional<BoxStats> Distribution::box() const
{
  if (empty())
    return std::nullopt;
  BoxStats b;
  b.q1 = *quantile(0.25);
  b.median = *quantile(0.5);
  b.q3 = *quantile(0.75);
  const double iqr = b.q3 - b.q1;
  // matplotlib.cbook.boxplot_stats: the whiskers end at the most extreme data inside
  // [q1 - 1.5 IQR, q3 + 1.5 IQR], falling back to the box edge when there is none.
  const auto lo = std::lower_bound(values_.begin(), values_.end(), b.q1 - 1.5 * iqr);
  b.whisker_low = (lo == values_.end() || *lo > b.q1) ? b.q1 : *lo;
  const auto hi = std::upper_bound(values_.begin(), values_.end(), b.q3 + 1.5 * iqr);
  b.whisker_high = (hi == values_.begin() || *(hi - 1) < b.q3) ? b.q3 : *(hi - 1);
  return b;
}

std::optional<double> GroupStatistics::state_share_of_jobs_percent(JobState state) const
{
  return percent_of(static_cast<double>(state_jobs[static_cast<std::size_t>(state)]), static_cast<double>(jobs));
}

std::optional<double> GroupStatistics::state_share_of_gpu_time_percent(JobState state) const
{
  return percent_of(state_gpu_seconds[static_cast<std::size_t>(state)], gpu_seconds);
}

std::vector<std::pair<std::string, std::optional<double>>> GroupStatistics::gpu_summary() const
{
  std::vector<std::pair<std::string, std::optional<double>>> out{{"mean", gpus.mean()}};
  for (double p : GPU_QUANTILES)
    out.emplace_back(quantile_label(p), gpus.quantile(p));
  const auto b = gpus.box();
  out.emplace_back("whisker_low", b ? std::optional(b->whisker_low) : std::nullopt);
  out.emplace_back("whisker_high", b ? std::optional(b->whisker_high) : std::nullopt);
  out.emplace_back("max", gpus.max());
  return out;
}

std::vector<std::pair<std::string, std::optional<double>>> GroupStatistics::duration_summary() const
{
  std::vector<std::pair<std::string, std::optional<double>>> out{{"mean", duration_s.mean()}};
  for (double p : DURATION_QUANTILES)
    out.emplace_back(quantile_label(p), duration_s.quantile(p));
  out.emplace_back("max", duration_s.max());
  return out;
}

std::vector<std::pair<std::string, std::optional<double>>> GroupStatistics::wait_summary() const
{
  if (wait_s.empty())
    return {};
  std::vector<std::pair<std::string, std::optional<double>>> out{{"mean", wait_s.mean()}};
  for (double p : WAIT_QUANTILES)
    out.emplace_back(quantile_label(p), wait_s.quantile(p));
  out.emplace_back("max", wait_s.max());
  return out;
}

std::optional<double> TraceStatistics::share_of_jobs_percent(JobType type) const
{
  return percent_of(static_cast<double>(of(type).jobs), static_cast<double>(gpu_jobs));
}

std::optional<double> TraceStatistics::share_of_gpu_time_percent(JobType type) const
{
  return percent_of(of(type).gpu_seconds, all_gpu_jobs.gpu_seconds);
}

std::optional<double> TraceStatistics::cpu_job_share_percent() const
{
  return percent_of(static_cast<double>(cpu_jobs), static_cast<double>(jobs));
}

TraceStatistics compute_trace_statistics(const Workload& workload)
{
  TraceStatistics stats;
  stats.source = workload.source;
  stats.jobs = workload.jobs.size();
  stats.skipped_rows = workload.skipped_rows;
  stats.dropped_unknown = workload.dropped_unknown.jobs;
  std::array<GroupBuilder, JOB_TYPE_COUNT> types;
  GroupBuilder all;
  bool first = true;
  double first_submit = 0, last_submit = 0;
  for (const Job& job : workload.jobs) {
    // The span does not assume a normalised workload: generated ones may start anywhere.
    first_submit = first ? job.submit_s : std::min(first_submit, job.submit_s);
    last_submit = first ? job.submit_s : std::max(last_submit, job.submit_s);
    first = false;
    if (job.cpu_only()) {
      ++stats.cpu_jobs;
      continue;
    }
    ++stats.gpu_jobs;
    types[static_cast<std::size_t>(job.type)].add(job);
    all.add(job);
  }
  stats.span_s = last_submit - first_submit;
  for (std::size_t t = 0; t < JOB_TYPE_COUNT; ++t)
    stats.by_type[t] = types[t].finish();
  stats.all_gpu_jobs = all.finish();
  return stats;
}

std::vector<double> default_gpu_count_points(const TraceStatistics& stats)
{
  return powers_of_two_covering(10, stats.all_gpu_jobs.gpus.max());
}

std::vector<double> default_duration_points(const TraceStatistics& stats)
{
  return powers_of_two_covering(21, stats.all_gpu_jobs.duration_s.max());
}

std::string quantile_label(double p)
{
  // Percent with at most one decimal: 0.25 -> "p25", 0.999 -> "p99.9".
  const double tenths = std::round(p * 1000.0);
  const auto whole = static_cast<long>(tenths / 10.0);
  const auto decimal = static_cast<long>(tenths) % 10;
  return "p" + std::to_string(whole) + (decimal == 0 ? "" : "." + std::to_string(decimal));
}

} // namespace acmesim
