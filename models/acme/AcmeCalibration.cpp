#include "models/acme/AcmeCalibration.hpp"

#include "models/common/InputError.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace acmesim {

namespace {

// Published percentages are rounded to 0.01: a curve that does not rise over an interval may
// still hold up to 0.005 points there. Such intervals get this small target instead of zero,
// so that a GPU count the other curve needs inside them stays possible.
constexpr double FLOOR_PERCENT = 0.002;

struct Band {
  double lo = 1, hi = 1, mass = 0;
  // Mean duration in the band: the log-linear interpolation spreads mass evenly in log(d).
  double mean() const { return hi > lo ? (hi - lo) / std::log(hi / lo) : lo; }
};

// A published CDF as intervals (previous x, x] with the percent each holds.
struct Interval {
  double lo = 0, hi = 0, percent = 0;
};

std::vector<Interval> intervals_of(const PublishedCdf& cdf)
{
  std::vector<Interval> out;
  double lo = 0, before = 0;
  for (std::size_t i = 0; i < cdf.x.size(); ++i) {
    out.push_back({lo, cdf.x[i], std::max(0.0, cdf.percent[i] - before)});
    lo = cdf.x[i];
    before = cdf.percent[i];
  }
  return out;
}

// The GPU count a rise over (lo, hi] belongs to. The figures keep only plotted vertices:
// a rise between non-adjacent vertices happened at lo + 1 (e.g. 511 -> 513 is 512, 767 -> 770
// is 768: the common job sizes).
int value_of(const Interval& in)
{
  return static_cast<int>(in.hi - in.lo <= 1 ? in.hi : in.lo + 1);
}

std::vector<Band> bands_of(const PublishedCdf& cdf)
{
  std::vector<Band> bands;
  double lo = 0, before = 0;
  for (std::size_t i = 0; i < cdf.x.size(); ++i) {
    const double mass = std::max(0.0, cdf.percent[i] - before) / 100;
    // The first point carries the durations at or below it: placed at the point itself.
    bands.push_back({i == 0 ? cdf.x[i] : lo, cdf.x[i], mass});
    lo = cdf.x[i];
    before = cdf.percent[i];
  }
  return bands;
}

// The prior weight of a GPU count within a type, from its Fig. 5 box: 1 inside the whiskers,
// more at the quartiles (jobs concentrate there), and outside them `outlier_prior` falling with
// the square of the distance from the whisker (as a ratio of GPU counts: an evaluation job of
// 1,024 GPUs is far less plausible than one of 32). Strictly, no job lies between a whisker and
// its 1.5 IQR fence; a zero weight there left Kalos' fit 10% short of its GPU-time sums (its
// Pretrain box starts at 96 GPUs while Fig. 3 puts 2.6% of the GPU time in 9-64-GPU jobs), so
// the read-off whiskers are taken as soft.
double box_prior(const PublishedCluster& p, JobType type, int gpus, double outlier_prior)
{
  const auto it = p.gpu_box_by_type.find(type);
  if (it == p.gpu_box_by_type.end())
    return 1;
  const BoxStats& b = it->second;
  if (gpus > b.whisker_high)
    return outlier_prior * std::pow(b.whisker_high / gpus, 2);
  if (gpus < b.whisker_low)
    return outlier_prior * std::pow(gpus / b.whisker_low, 2);
  double w = 1;
  for (double q : {b.q1, b.median, b.q3})
    if (gpus == q)
      w += 2;
  return w;
}

// One linear constraint: sum over `cells` of coefficient x share = target (x total GPU time
// when `of_gpu_time`), or a bound on it.
enum class Bound { Equal, AtLeast, AtMost };
struct Group {
  std::vector<std::size_t> cells;
  double target = 0;
  bool of_gpu_time = false;
  Bound bound = Bound::Equal;
};

// A key's share of the total of all shares (0 if the key has none, or there is no total).
template <class Key> double normalised(const std::map<Key, double>& shares, Key key)
{
  double total = 0;
  for (const auto& [k, s] : shares)
    total += s;
  const auto it = shares.find(key);
  return it == shares.end() || total <= 0 ? 0 : it->second / total;
}

constexpr std::array<JobState, 3> STATES{JobState::Completed, JobState::Cancelled, JobState::Failed};

// Every curve the fit needs; InputError listing each one the cluster lacks.
void require_published_curves(const PublishedCluster& p)
{
  DiagnosticList missing;
  const auto need = [&](bool ok, const std::string& what) {
    if (!ok)
      missing.add("published " + p.name, what, "", "needed for calibration, not published for this cluster");
  };
  need(!p.type_share_of_jobs_percent.empty(), "Fig. 4 type shares by count");
  need(!p.gpu_count_cdf_by_jobs.empty(), "Fig. 3 GPU-count CDF by jobs");
  need(!p.gpu_count_cdf_by_gpu_time.empty(), "Fig. 3 GPU-count CDF by GPU time");
  for (const auto& [type, share] : p.type_share_of_jobs_percent)
    need(p.duration_cdf_by_type.count(type) > 0, "Fig. 6 duration CDF of " + std::string(to_string(type)));
  missing.throw_if_any();
}

// The index of the interval (lo, hi] that holds `v`; the list's size if none does.
std::size_t interval_index(const std::vector<Interval>& list, int v)
{
  for (std::size_t i = 0; i < list.size(); ++i)
    if (v > list[i].lo && v <= list[i].hi)
      return i;
  return list.size();
}

// The constraints of the fit, by family: what the published numbers say about sums of cells.
struct Constraints {
  std::vector<Interval> job_intervals;  // Fig. 3 by jobs
  std::vector<Interval> time_intervals; // Fig. 3 by GPU time
  std::vector<Group> by_type_band, by_job_interval, by_time_interval;
  std::map<JobType, Group> by_type_time;
  std::map<JobState, Group> by_state_jobs, by_state_time;
  std::vector<Group> by_type_quartile; // Fig. 5: bounds on the jobs at or below each quartile
};

// The GPU counts a job may have: every count either Fig. 3 curve rises at.
std::vector<int> gpu_values_of(const Constraints& k)
{
  std::set<int> support;
  for (const auto* list : {&k.job_intervals, &k.time_intervals})
    for (const auto& in : *list)
      if (in.percent > 0)
        support.insert(value_of(in));
  return {support.begin(), support.end()};
}

// How far inside a quartile's bounds the fit aims, as a fraction of the type's jobs: on a
// bound, rounding the counts of a trace would put the trace's quartile at the next GPU count.
constexpr double QUARTILE_MARGIN = 0.01;

// Fig. 5's quartiles of a type's GPUs as bounds: of the type's jobs (cells from `first_cell`
// on), at least a fraction p has at most q GPUs and at most p has fewer than q, for each
// quartile q at p = 1/4, 1/2, 3/4.
void add_quartile_bounds(const PublishedCluster& p, JobType type, double type_share,
                         const std::vector<CalibrationCell>& cells, std::size_t first_cell, Constraints& k)
{
  const auto box = p.gpu_box_by_type.find(type);
  if (box == p.gpu_box_by_type.end())
    return;
  const BoxStats& b = box->second;
  for (const auto& [q, fraction] : {std::pair{b.q1, 0.25}, {b.median, 0.5}, {b.q3, 0.75}}) {
    Group at_most_q{{}, type_share * (fraction + QUARTILE_MARGIN), false, Bound::AtLeast};
    Group below_q{{}, type_share * (fraction - QUARTILE_MARGIN), false, Bound::AtMost};
    for (std::size_t c = first_cell; c < cells.size(); ++c) {
      if (cells[c].gpus <= q)
        at_most_q.cells.push_back(c);
      if (cells[c].gpus < q)
        below_q.cells.push_back(c);
    }
    k.by_type_quartile.push_back(std::move(at_most_q));
    if (!below_q.cells.empty())
      k.by_type_quartile.push_back(std::move(below_q));
  }
}

// The cells of the prior (Fig. 5 boxes x Fig. 6 bands x uniform states), each entered in every
// constraint it counts in; `coefficient` gets each cell's GPU-seconds per job (GPUs x mean
// duration).
void add_prior_cells(const PublishedCluster& p, const CalibrationOptions& options, AcmeCalibration& result,
                     std::vector<double>& coefficient, Constraints& k)
{
  const std::vector<int> gpu_values = gpu_values_of(k);
  k.by_job_interval.resize(k.job_intervals.size());
  k.by_time_interval.resize(k.time_intervals.size());
  for (const auto& [type, share_percent] : p.type_share_of_jobs_percent) {
    const double type_share = normalised(p.type_share_of_jobs_percent, type);
    const std::size_t first_cell = result.cells.size();
    // Outliers are as plausible as the type is heavy: weighted by its GPU time per job relative
    // to the cluster's (Fig. 4; Seren evaluation 0.1, MLLM 2.9, capped at 1), an assumption that
    // sends the large jobs Fig. 3 needs beyond the pretraining box to MLLM, SFT and Other
    // rather than to the many small evaluation jobs.
    const double time_share = normalised(p.type_share_of_gpu_time_percent, type);
    const double heaviness = type_share > 0 && time_share > 0 ? std::min(1.0, time_share / type_share) : 1.0;
    const double outlier = options.outlier_prior * heaviness;
    double prior_total = 0;
    for (int g : gpu_values)
      prior_total += box_prior(p, type, g, outlier);
    for (const Band& band : bands_of(p.duration_cdf_by_type.at(type))) {
      if (band.mass <= 0)
        continue;
      Group group{{}, type_share * band.mass, false};
      for (int g : gpu_values) {
        const double gpu_prior = box_prior(p, type, g, outlier) / prior_total;
        for (JobState s : STATES) {
          const std::size_t cell = result.cells.size();
          result.cells.push_back({type, g, band.lo, band.hi, s, type_share * band.mass * gpu_prior / 3});
          coefficient.push_back(g * band.mean());
          group.cells.push_back(cell);
          k.by_job_interval.at(interval_index(k.job_intervals, g)).cells.push_back(cell);
          k.by_time_interval.at(interval_index(k.time_intervals, g)).cells.push_back(cell);
          k.by_type_time[type].cells.push_back(cell);
          k.by_state_jobs[s].cells.push_back(cell);
          k.by_state_time[s].cells.push_back(cell);
        }
      }
      k.by_type_band.push_back(std::move(group));
    }
    add_quartile_bounds(p, type, type_share, result.cells, first_cell, k);
  }
}

// Targets of the families that do not depend on the type.
void set_targets(const PublishedCluster& p, Constraints& k)
{
  for (std::size_t i = 0; i < k.job_intervals.size(); ++i)
    k.by_job_interval[i].target = std::max(k.job_intervals[i].percent, FLOOR_PERCENT) / 100;
  for (std::size_t i = 0; i < k.time_intervals.size(); ++i) {
    k.by_time_interval[i].target = std::max(k.time_intervals[i].percent, FLOOR_PERCENT) / 100;
    k.by_time_interval[i].of_gpu_time = true;
  }
  for (auto& [type, g] : k.by_type_time) {
    g.target = normalised(p.type_share_of_gpu_time_percent, type);
    g.of_gpu_time = true;
  }
  for (JobState s : STATES) {
    k.by_state_jobs[s].target = normalised(p.state_share_of_jobs_percent, s);
    k.by_state_time[s].target = normalised(p.state_share_of_gpu_time_percent, s);
    k.by_state_time[s].of_gpu_time = true;
  }
}

// The families in the order the fit meets them; a family the cluster has no numbers for is empty.
std::vector<std::vector<Group>> families_of(const PublishedCluster& p, Constraints& k)
{
  std::vector<Group> type_time, state_jobs, state_time;
  if (!p.type_share_of_gpu_time_percent.empty())
    for (auto& [t, g] : k.by_type_time)
      type_time.push_back(g);
  if (!p.state_share_of_jobs_percent.empty())
    for (JobState s : STATES) {
      state_jobs.push_back(k.by_state_jobs[s]);
      state_time.push_back(k.by_state_time[s]);
    }
  return {k.by_type_band, k.by_job_interval, k.by_time_interval, type_time, state_jobs, state_time,
          k.by_type_quartile};
}

// Iterative proportional fitting of the cells' shares to the families' targets.
class ProportionalFit {
public:
  ProportionalFit(std::vector<CalibrationCell>& cells, const std::vector<double>& coefficient)
      : cells_(cells), coefficient_(coefficient)
  {
  }

  // Meets every family in turn until the largest relative miss is under the tolerance or the
  // iterations run out; records both in `result`.
  void run(const std::vector<std::vector<Group>>& families, const CalibrationOptions& options,
           AcmeCalibration& result)
  {
    for (result.iterations = 1; result.iterations <= options.max_iterations; ++result.iterations) {
      double residual = 0;
      for (const auto& family : families) {
        const double gpu_time = total_gpu_time();
        for (const Group& g : family) {
          const double target = g.of_gpu_time ? g.target * gpu_time : g.target;
          const double current = sum(g);
          if (current <= 0 || target <= 0 || (g.bound == Bound::AtLeast && current >= target) ||
              (g.bound == Bound::AtMost && current <= target))
            continue; // a bound that holds is left alone
          residual = std::max(residual, std::abs(current / target - 1));
          if (g.of_gpu_time) {
            tilt(g, target);
          } else {
            const double factor = target / current;
            for (std::size_t c : g.cells)
              cells_[c].share *= factor;
          }
        }
      }
      result.max_residual = residual;
      if (residual < options.tolerance)
        break;
    }
  }

private:
  double sum(const Group& g) const
  {
    double s = 0;
    for (std::size_t c : g.cells)
      s += (g.of_gpu_time ? coefficient_[c] : 1.0) * cells_[c].share;
    return s;
  }

  double total_gpu_time() const
  {
    double s = 0;
    for (std::size_t c = 0; c < cells_.size(); ++c)
      s += coefficient_[c] * cells_[c].share;
    return s;
  }

  // Counting constraints are met by scaling their cells alike. GPU-time constraints tilt their
  // cells by exp(lambda x GPU-seconds), lambda found by Newton's method: the exact projection
  // for a constraint weighted by GPU-seconds, which moves mass toward longer or larger cells
  // within the group (scaling alike could never make CANCELLED jobs longer than COMPLETED ones).
  void tilt(const Group& g, double target)
  {
    double scale = 0;
    for (std::size_t c : g.cells)
      scale = std::max(scale, coefficient_[c]);
    if (scale <= 0)
      return;
    double lambda = 0;
    for (int step = 0; step < 50; ++step) {
      double f = -target, df = 0;
      for (std::size_t c : g.cells) {
        const double x = coefficient_[c] / scale;
        const double w = coefficient_[c] * cells_[c].share * std::exp(lambda * x);
        f += w;
        df += w * x;
      }
      if (std::abs(f) <= 1e-12 * target || df <= 0)
        break;
      lambda -= std::clamp(f / df, -5.0, 5.0);
    }
    for (std::size_t c : g.cells)
      cells_[c].share *= std::exp(lambda * coefficient_[c] / scale);
  }

  std::vector<CalibrationCell>& cells_;
  const std::vector<double>& coefficient_;
};

// Renormalises (the families keep the total at 1 only up to the residual) and drops the cells
// the fit emptied.
void renormalise(std::vector<CalibrationCell>& cells)
{
  double total = 0;
  for (const auto& c : cells)
    total += c.share;
  std::vector<CalibrationCell> kept;
  for (auto& c : cells)
    if (c.share / total > 1e-12) {
      c.share /= total;
      kept.push_back(c);
    }
  cells = std::move(kept);
}

} // namespace

double mean_gpu_seconds_per_job(const AcmeCalibration& calibration)
{
  double total = 0;
  for (const CalibrationCell& c : calibration.cells)
    total += c.share * c.gpus * Band{c.duration_lo_s, c.duration_hi_s, 0}.mean();
  return total;
}

AcmeCalibration calibrate_to_published(const PublishedCluster& p, const CalibrationOptions& options)
{
  require_published_curves(p);
  Constraints constraints;
  constraints.job_intervals = intervals_of(p.gpu_count_cdf_by_jobs);
  constraints.time_intervals = intervals_of(p.gpu_count_cdf_by_gpu_time);
  AcmeCalibration result;
  result.cluster = p.name;
  std::vector<double> coefficient;
  add_prior_cells(p, options, result, coefficient, constraints);
  set_targets(p, constraints);
  ProportionalFit(result.cells, coefficient).run(families_of(p, constraints), options, result);
  renormalise(result.cells);
  return result;
}

} // namespace acmesim
