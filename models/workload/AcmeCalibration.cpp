#include "models/workload/AcmeCalibration.hpp"

#include "models/common/InputError.hpp"

#include <algorithm>
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

double box_prior(const PublishedCluster& p, JobType type, int gpus, double outlier_prior)
{
  const auto it = p.gpu_box_by_type.find(type);
  if (it == p.gpu_box_by_type.end())
    return 1;
  const BoxStats& b = it->second;
  double w = (gpus >= b.whisker_low && gpus <= b.whisker_high) ? 1 : outlier_prior;
  for (double q : {b.q1, b.median, b.q3})
    if (gpus == q)
      w += 2; // the quartiles are where jobs concentrate
  return w;
}

// One linear constraint: sum over `cells` of coefficient x share = target (x total GPU time
// when `of_gpu_time`).
struct Group {
  std::vector<std::size_t> cells;
  double target = 0;
  bool of_gpu_time = false;
};

double normalised(const std::map<JobType, double>& shares, JobType t)
{
  double total = 0;
  for (const auto& [type, s] : shares)
    total += s;
  const auto it = shares.find(t);
  return it == shares.end() || total <= 0 ? 0 : it->second / total;
}

} // namespace

AcmeCalibration calibrate_to_published(const PublishedCluster& p, const CalibrationOptions& options)
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

  const auto job_intervals = intervals_of(p.gpu_count_cdf_by_jobs);
  const auto time_intervals = intervals_of(p.gpu_count_cdf_by_gpu_time);
  std::set<int> support;
  for (const auto* list : {&job_intervals, &time_intervals})
    for (const auto& in : *list)
      if (in.percent > 0)
        support.insert(value_of(in));
  const std::vector<int> gpu_values(support.begin(), support.end());
  const auto interval_index = [](const std::vector<Interval>& list, int v) {
    for (std::size_t i = 0; i < list.size(); ++i)
      if (v > list[i].lo && v <= list[i].hi)
        return i;
    return list.size();
  };

  const std::vector<JobState> states{JobState::Completed, JobState::Cancelled, JobState::Failed};
  AcmeCalibration result;
  result.cluster = p.name;
  std::vector<double> coefficient; // GPU-seconds per job of the cell (GPUs x mean duration)
  std::vector<Group> by_type_band, by_job_interval(job_intervals.size()), by_time_interval(time_intervals.size());
  std::map<JobType, Group> by_type_time;
  std::map<JobState, Group> by_state_jobs, by_state_time;

  for (const auto& [type, share_percent] : p.type_share_of_jobs_percent) {
    const double type_share = normalised(p.type_share_of_jobs_percent, type);
    double prior_total = 0;
    for (int g : gpu_values)
      prior_total += box_prior(p, type, g, options.outlier_prior);
    for (const Band& band : bands_of(p.duration_cdf_by_type.at(type))) {
      if (band.mass <= 0)
        continue;
      Group group{{}, type_share * band.mass, false};
      for (int g : gpu_values) {
        const double gpu_prior = box_prior(p, type, g, options.outlier_prior) / prior_total;
        for (JobState s : states) {
          const std::size_t cell = result.cells.size();
          result.cells.push_back({type, g, band.lo, band.hi, s, type_share * band.mass * gpu_prior / 3});
          coefficient.push_back(g * band.mean());
          group.cells.push_back(cell);
          by_job_interval.at(interval_index(job_intervals, g)).cells.push_back(cell);
          by_time_interval.at(interval_index(time_intervals, g)).cells.push_back(cell);
          by_type_time[type].cells.push_back(cell);
          by_state_jobs[s].cells.push_back(cell);
          by_state_time[s].cells.push_back(cell);
        }
      }
      by_type_band.push_back(std::move(group));
    }
  }

  // Targets of the families that do not depend on the type.
  for (std::size_t i = 0; i < job_intervals.size(); ++i)
    by_job_interval[i].target = std::max(job_intervals[i].percent, FLOOR_PERCENT) / 100;
  for (std::size_t i = 0; i < time_intervals.size(); ++i) {
    by_time_interval[i].target = std::max(time_intervals[i].percent, FLOOR_PERCENT) / 100;
    by_time_interval[i].of_gpu_time = true;
  }
  for (auto& [type, g] : by_type_time) {
    g.target = normalised(p.type_share_of_gpu_time_percent, type);
    g.of_gpu_time = true;
  }
  const auto state_share = [](const std::map<JobState, double>& m, JobState s) {
    double total = 0;
    for (const auto& [state, v] : m)
      total += v;
    const auto it = m.find(s);
    return it == m.end() || total <= 0 ? 0.0 : it->second / total;
  };
  for (JobState s : states) {
    by_state_jobs[s].target = state_share(p.state_share_of_jobs_percent, s);
    by_state_time[s].target = state_share(p.state_share_of_gpu_time_percent, s);
    by_state_time[s].of_gpu_time = true;
  }

  std::vector<std::vector<Group>*> families{&by_type_band, &by_job_interval, &by_time_interval};
  std::vector<Group> type_time, state_jobs, state_time;
  if (!p.type_share_of_gpu_time_percent.empty())
    for (auto& [t, g] : by_type_time)
      type_time.push_back(g);
  if (!p.state_share_of_jobs_percent.empty())
    for (JobState s : states) {
      state_jobs.push_back(by_state_jobs[s]);
      state_time.push_back(by_state_time[s]);
    }
  families.push_back(&type_time);
  families.push_back(&state_jobs);
  families.push_back(&state_time);

  auto& cells = result.cells;
  const auto sum = [&](const Group& g) {
    double s = 0;
    for (std::size_t c : g.cells)
      s += (g.of_gpu_time ? coefficient[c] : 1.0) * cells[c].share;
    return s;
  };
  const auto total_gpu_time = [&] {
    double s = 0;
    for (std::size_t c = 0; c < cells.size(); ++c)
      s += coefficient[c] * cells[c].share;
    return s;
  };
  // Counting constraints are met by scaling their cells alike. GPU-time constraints tilt their
  // cells by exp(lambda x GPU-seconds), lambda found by Newton's method: the exact projection
  // for a constraint weighted by GPU-seconds, which moves mass toward longer or larger cells
  // within the group (scaling alike could never make CANCELLED jobs longer than COMPLETED ones).
  const auto tilt = [&](const Group& g, double target) {
    double scale = 0;
    for (std::size_t c : g.cells)
      scale = std::max(scale, coefficient[c]);
    if (scale <= 0)
      return;
    double lambda = 0;
    for (int step = 0; step < 50; ++step) {
      double f = -target, df = 0;
      for (std::size_t c : g.cells) {
        const double x = coefficient[c] / scale;
        const double w = coefficient[c] * cells[c].share * std::exp(lambda * x);
        f += w;
        df += w * x;
      }
      if (std::abs(f) <= 1e-12 * target || df <= 0)
        break;
      lambda -= std::clamp(f / df, -5.0, 5.0);
    }
    for (std::size_t c : g.cells)
      cells[c].share *= std::exp(lambda * coefficient[c] / scale);
  };
  for (result.iterations = 1; result.iterations <= options.max_iterations; ++result.iterations) {
    double residual = 0;
    for (auto* family : families) {
      const double gpu_time = total_gpu_time();
      for (const Group& g : *family) {
        const double target = g.of_gpu_time ? g.target * gpu_time : g.target;
        const double current = sum(g);
        if (current <= 0 || target <= 0)
          continue;
        residual = std::max(residual, std::abs(current / target - 1));
        if (g.of_gpu_time) {
          tilt(g, target);
        } else {
          const double factor = target / current;
          for (std::size_t c : g.cells)
            cells[c].share *= factor;
        }
      }
    }
    result.max_residual = residual;
    if (residual < options.tolerance)
      break;
  }
  // Renormalise (the families above keep the total at 1 only up to the residual) and drop
  // cells the fit emptied.
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
  return result;
}

} // namespace acmesim
