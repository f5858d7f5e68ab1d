#include "sim/report/RecordedVsSimulated.hpp"

#include "models/acme/TraceStatistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <utility>

namespace acmesim {

namespace {

// Size classes as the scheduling literature bins a machine's jobs: serial, then by factors of 4.
constexpr std::array<std::pair<int, int>, 5> SIZE_CLASSES{
    {{1, 1}, {2, 8}, {9, 32}, {33, 128}, {129, INT_MAX}}};

double bounded_slowdown(double wait_s, double run_s)
{
  return std::max(1.0, (wait_s + run_s) / std::max(run_s, BOUNDED_SLOWDOWN_TAU_S));
}

Distribution distribution_of(const std::vector<double>& values)
{
  std::vector<std::pair<double, double>> samples;
  samples.reserve(values.size());
  for (const double v : values)
    samples.emplace_back(v, 1.0);
  return Distribution::from_samples(std::move(samples));
}

SideBySide side_by_side(const Distribution& recorded, const Distribution& simulated)
{
  return {recorded.mean(),          simulated.mean(),          recorded.quantile(0.5),
          simulated.quantile(0.5),  recorded.quantile(0.95),   simulated.quantile(0.95)};
}

// The jobs that have both waits, each as (recorded, simulated) wait and slowdown.
WaitComparison compare(const std::vector<const RunJobWait*>& jobs)
{
  WaitComparison c;
  c.jobs = jobs.size();
  std::vector<double> rec_wait, sim_wait, rec_bsld, sim_bsld;
  for (const RunJobWait* j : jobs) {
    rec_wait.push_back(j->recorded_wait_s);
    sim_wait.push_back(j->simulated_wait_s);
    rec_bsld.push_back(bounded_slowdown(j->recorded_wait_s, j->run_s));
    sim_bsld.push_back(bounded_slowdown(j->simulated_wait_s, j->run_s));
  }
  const Distribution rec = distribution_of(rec_wait);
  const Distribution sim = distribution_of(sim_wait);
  c.wait_s = side_by_side(rec, sim);
  c.bounded_slowdown = side_by_side(distribution_of(rec_bsld), distribution_of(sim_bsld));
  // Both CDFs are steps that change only at the values of either side: the gap is largest at one.
  for (const Distribution* d : {&rec, &sim})
    for (const double x : d->values()) {
      const double gap = std::abs(rec.cdf_percent(x).value_or(0) - sim.cdf_percent(x).value_or(0)) / 100;
      if (gap > c.cdf_gap) {
        c.cdf_gap = gap;
        c.cdf_gap_at_s = x;
      }
    }
  return c;
}

std::string shown(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }

std::string ratio(const std::optional<double>& simulated, const std::optional<double>& recorded)
{
  return simulated && recorded && *recorded > 0 ? fmt::format("{:.2f}", *simulated / *recorded) : "-";
}

std::string size_label(const SizeClass& c)
{
  if (c.min_size == c.max_size)
    return std::to_string(c.min_size);
  return c.max_size == INT_MAX ? std::to_string(c.min_size) + "+"
                               : std::to_string(c.min_size) + "-" + std::to_string(c.max_size);
}

void print_rows(std::ostream& out, const char* what, const SideBySide& s)
{
  const std::array<std::tuple<const char*, std::optional<double>, std::optional<double>>, 3> rows{
      {{"mean", s.recorded_mean, s.simulated_mean},
       {"median", s.recorded_median, s.simulated_median},
       {"p95", s.recorded_p95, s.simulated_p95}}};
  for (const auto& [name, rec, sim] : rows)
    out << fmt::format("  {:<22} {:>14} {:>14} {:>10}\n", fmt::format("{} {}", what, name), shown(rec), shown(sim),
                       ratio(sim, rec));
}

nlohmann::ordered_json side_json(const SideBySide& s)
{
  const auto value = [](const std::optional<double>& v) { return v ? nlohmann::ordered_json(*v) : nullptr; };
  return {{"recorded", {{"mean", value(s.recorded_mean)}, {"median", value(s.recorded_median)},
                        {"p95", value(s.recorded_p95)}}},
          {"simulated", {{"mean", value(s.simulated_mean)}, {"median", value(s.simulated_median)},
                         {"p95", value(s.simulated_p95)}}}};
}

nlohmann::ordered_json comparison_json(const WaitComparison& c)
{
  return {{"jobs", c.jobs},
          {"wait_s", side_json(c.wait_s)},
          {"bounded_slowdown", side_json(c.bounded_slowdown)},
          {"wait_cdf_gap", c.cdf_gap},
          {"wait_cdf_gap_at_s", c.cdf_gap_at_s}};
}

} // namespace

RecordedVsSimulated compare_recorded_waits(const RunJobWaits& waits)
{
  RecordedVsSimulated r;
  r.rows = waits.jobs.size();
  r.recorded_column = waits.recorded_column;
  std::vector<const RunJobWait*> both;
  for (const RunJobWait& j : waits.jobs) {
    if (j.recorded_wait_s < 0)
      ++r.no_recorded;
    else if (j.simulated_wait_s < 0)
      ++r.never_started;
    else
      both.push_back(&j);
  }
  r.all = compare(both);
  for (const auto& size_class : SIZE_CLASSES) {
    // Named copies, not structured bindings: clang 14 (the sanitizer build) cannot capture those.
    const int lo = size_class.first;
    const int hi = size_class.second;
    std::vector<const RunJobWait*> in_class;
    std::copy_if(both.begin(), both.end(), std::back_inserter(in_class),
                 [lo, hi](const RunJobWait* j) { return j->size >= lo && j->size <= hi; });
    if (!in_class.empty())
      r.by_size.push_back({lo, hi, compare(in_class)});
  }
  return r;
}

void print_recorded_vs_simulated(std::ostream& out, const std::string& source, const RecordedVsSimulated& r)
{
  out << fmt::format("recorded vs simulated waits: {}\n", source);
  if (r.all.jobs == 0) {
    out << (r.recorded_column && r.no_recorded < r.rows
                ? "no job both has a recorded wait and started in the run: nothing to compare\n"
                : "the log records no waits (its source gave none, as an SWF log whose field 3 is -1 "
                  "throughout): nothing to compare\n");
    return;
  }
  out << fmt::format("jobs         {} compared; {} without a recorded wait, {} never started in the run\n",
                     r.all.jobs, r.no_recorded, r.never_started);
  out << fmt::format("  {:<22} {:>14} {:>14} {:>10}\n", "", "recorded", "simulated", "sim/rec");
  print_rows(out, "wait (s)", r.all.wait_s);
  print_rows(out, "bounded slowdown", r.all.bounded_slowdown);
  out << fmt::format("wait CDFs    differ by at most {:.3f} (at {:.0f} s)\n", r.all.cdf_gap, r.all.cdf_gap_at_s);
  out << fmt::format("by size      {:>8} {:>8} {:>12} {:>12} {:>8} {:>10} {:>10} {:>9}\n", "size", "jobs",
                     "rec mean", "sim mean", "sim/rec", "rec p50", "sim p50", "CDF gap");
  for (const SizeClass& c : r.by_size) {
    const SideBySide& w = c.comparison.wait_s;
    out << fmt::format("             {:>8} {:>8} {:>12} {:>12} {:>8} {:>10} {:>10} {:>9.3f}\n", size_label(c),
                       c.comparison.jobs, shown(w.recorded_mean), shown(w.simulated_mean),
                       ratio(w.simulated_mean, w.recorded_mean), shown(w.recorded_median),
                       shown(w.simulated_median), c.comparison.cdf_gap);
  }
  out << fmt::format("(bounded slowdown: (wait + run) / max(run, {:g} s); sizes in the jobs.csv gpus column)\n",
                     BOUNDED_SLOWDOWN_TAU_S);
}

nlohmann::ordered_json recorded_vs_simulated_json(const std::string& source, const RecordedVsSimulated& r)
{
  nlohmann::ordered_json by_size = nlohmann::ordered_json::array();
  for (const SizeClass& c : r.by_size) {
    nlohmann::ordered_json entry{{"size", size_label(c)}};
    entry.update(comparison_json(c.comparison));
    by_size.push_back(std::move(entry));
  }
  return {{"source", source},
          {"jobs", r.rows},
          {"without_recorded_wait", r.no_recorded},
          {"never_started", r.never_started},
          {"compared", comparison_json(r.all)},
          {"by_size", std::move(by_size)}};
}

} // namespace acmesim
