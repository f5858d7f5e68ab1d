#include "sim/report/TraceStatsReport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace acmesim {

namespace {

using detail::Group;
using detail::groups;

// Columns sized to their widest cell: numbers right-aligned, a first column of labels left-aligned.
class Table {
public:
  explicit Table(std::vector<std::string> header, bool labels = true) : labels_(labels)
  {
    rows_.push_back(std::move(header));
  }
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  std::vector<std::string>& header() { return rows_.front(); }
  void print(std::ostream& out, const std::string& title) const
  {
    std::vector<std::size_t> width;
    for (const auto& r : rows_) {
      width.resize(std::max(width.size(), r.size()));
      for (std::size_t c = 0; c < r.size(); ++c)
        width[c] = std::max(width[c], r[c].size());
    }
    out << '\n' << title << '\n';
    for (const auto& r : rows_) {
      std::string line = " ";
      for (std::size_t c = 0; c < r.size(); ++c)
        line += c == 0 && labels_ ? fmt::format(" {:<{}}", r[c], width[c]) : fmt::format("  {:>{}}", r[c], width[c]);
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << '\n';
    }
  }

private:
  bool labels_;
  std::vector<std::vector<std::string>> rows_;
};

std::string pct(std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "-"; }
std::string gap(std::optional<double> v) { return v ? fmt::format("{:+.2f}", *v) : "-"; }
std::string num(std::optional<double> v)
{
  if (!v)
    return "-";
  return std::abs(*v) >= 100 ? fmt::format("{:.0f}", *v) : fmt::format("{:.4g}", *v);
}
std::string box_text(const BoxStats& b)
{
  return fmt::format("{:g}/{:g}/{:g} ({:g}-{:g})", b.q1, b.median, b.q3, b.whisker_low, b.whisker_high);
}

const ShareComparison* find_share(const std::vector<ShareComparison>* list, std::string_view key)
{
  if (!list)
    return nullptr;
  const auto it = std::find_if(list->begin(), list->end(), [&](const auto& s) { return s.key == key; });
  return it == list->end() ? nullptr : &*it;
}

// Appends the trace value, and with a comparison the published value and the gap in points.
void cells(std::vector<std::string>& row, std::optional<double> trace, bool compare, std::optional<double> published)
{
  row.push_back(pct(trace));
  if (compare)
    row.insert(row.end(), {published ? pct(published) : "", published && trace ? gap(*trace - *published) : ""});
}

// As above with the comparison's own gap: type shares are compared over the types Acme shows.
void cells(std::vector<std::string>& row, std::optional<double> trace, bool compare, const ShareComparison* c)
{
  row.push_back(pct(trace));
  if (compare)
    row.insert(row.end(), {c ? pct(c->published_percent) : "", c ? gap(c->gap_points) : ""});
}

void print_types(std::ostream& out, const TraceStatistics& s, const ComparisonReport* r)
{
  const bool cmp = r != nullptr;
  Table shares(cmp ? std::vector<std::string>{"type", "jobs", "% jobs", "Acme", "gap", "% GPU time", "Acme", "gap"}
                   : std::vector<std::string>{"type", "jobs", "% jobs", "% GPU time"});
  Table gpus({"type", "mean", "p25", "p50", "p75", "whisker lo", "whisker hi", "max"});
  if (cmp)
    gpus.header().emplace_back("Acme q1/med/q3 (whiskers)");
  Table durations({"type", "mean", "p25", "p50", "p75", "p90", "p99", "max"});
  std::array<Table, 2> states{Table({"type"}), Table({"type"})}; // % of jobs, % of GPU time
  for (auto& t : states)
    for (JobState st : enum_values<JobState>())
      t.header().emplace_back(to_string(st));
  for (const auto& [name, g, share_jobs, share_time] : groups(s)) {
    std::vector<std::string> row{name, std::to_string(g->jobs)};
    cells(row, share_jobs, cmp, find_share(cmp ? &r->type_share_of_jobs : nullptr, name));
    cells(row, share_time, cmp, find_share(cmp ? &r->type_share_of_gpu_time : nullptr, name));
    shares.row(row);
    row = {name};
    for (const auto& [label, v] : g->gpu_summary())
      row.push_back(num(v));
    if (cmp) {
      // By value: C++20 lambdas cannot capture a structured binding in clang 14.
      const std::string type_name = name;
      const auto it = std::find_if(r->gpu_boxes.begin(), r->gpu_boxes.end(),
                                   [&](const auto& b) { return to_string(b.type) == type_name; });
      row.push_back(it == r->gpu_boxes.end() ? "" : box_text(it->published));
    }
    gpus.row(row);
    row = {name};
    for (const auto& [label, v] : g->duration_summary())
      row.push_back(num(v));
    durations.row(row);
    for (const bool by_time : {false, true}) {
      row = {name};
      for (JobState st : enum_values<JobState>())
        row.push_back(pct(by_time ? g->state_share_of_gpu_time_percent(st) : g->state_share_of_jobs_percent(st)));
      states[by_time].row(row);
    }
  }
  shares.print(out, cmp ? "GPU jobs by type (Fig. 4; Acme shares are over the types it shows)" : "GPU jobs by type");
  gpus.print(out, "GPUs per job by type (Fig. 5 box: quartiles, whiskers at 1.5 IQR)");
  durations.print(out, "duration by type (s)");
  states[0].print(out, "final state by type, % of jobs");
  states[1].print(out, "final state by type, % of GPU time");
  if (cmp) {
    Table acme({"state", "% jobs", "Acme", "gap", "% GPU time", "Acme", "gap"});
    for (const auto& sj : r->state_share_of_jobs) {
      std::vector<std::string> row{sj.key};
      cells(row, sj.trace_percent, true, &sj);
      if (const auto* st = find_share(&r->state_share_of_gpu_time, sj.key))
        cells(row, st->trace_percent, true, st);
      acme.row(row);
    }
    acme.print(out, "final state vs Acme (cluster_summary.csv; TIMEOUT and NODE_FAIL count as FAILED)");
  }
}

void print_cdfs(std::ostream& out, const TraceStatistics& s, const PublishedCluster* p)
{
  const bool cmp = p != nullptr;
  const Distribution& gpus = s.all_gpu_jobs.gpus;
  // Rows at the default points and, with a comparison, at every published x.
  std::set<double> gpu_x;
  for (double x : default_gpu_count_points(s))
    gpu_x.insert(x);
  if (cmp) {
    gpu_x.insert(p->gpu_count_cdf_by_jobs.x.begin(), p->gpu_count_cdf_by_jobs.x.end());
    gpu_x.insert(p->gpu_count_cdf_by_gpu_time.x.begin(), p->gpu_count_cdf_by_gpu_time.x.end());
  }
  Table g(cmp ? std::vector<std::string>{"GPUs <= x", "% jobs", "Acme", "gap", "% GPU time", "Acme", "gap"}
              : std::vector<std::string>{"GPUs <= x", "% jobs", "% GPU time"},
          false);
  for (double x : gpu_x) {
    std::vector<std::string> row{num(x)};
    cells(row, gpus.cdf_percent(x), cmp, cmp ? p->gpu_count_cdf_by_jobs.at(x) : std::nullopt);
    const auto by_time = gpus.cdf_percent(x, CdfWeighting::GpuTime);
    cells(row, by_time, cmp, cmp ? p->gpu_count_cdf_by_gpu_time.at(x) : std::nullopt);
    g.row(row);
  }
  g.print(out, "GPUs per job, CDF of GPU jobs and of GPU time (Fig. 3)");

  // Columns: all GPU jobs, then every type with jobs or with a published curve.
  std::vector<std::tuple<std::string, const Distribution*, const PublishedCdf*>> cols{
      {"all", &s.all_gpu_jobs.duration_s, cmp ? &p->duration_cdf : nullptr}};
  std::set<double> xs;
  for (double x : default_duration_points(s))
    xs.insert(x);
  for (JobType t : enum_values<JobType>()) {
    const auto it = cmp ? p->duration_cdf_by_type.find(t) : std::map<JobType, PublishedCdf>::const_iterator{};
    const PublishedCdf* pc = cmp && it != p->duration_cdf_by_type.end() ? &it->second : nullptr;
    if (s.of(t).jobs > 0 || pc)
      cols.emplace_back(std::string(to_string(t)), &s.of(t).duration_s, pc);
  }
  Table d({"seconds <= x"}, false);
  for (const auto& [name, dist, pc] : cols) {
    d.header().push_back(name);
    if (cmp)
      d.header().emplace_back("Acme");
    if (pc)
      xs.insert(pc->x.begin(), pc->x.end());
  }
  for (double x : xs) {
    std::vector<std::string> row{num(x)};
    for (const auto& [name, dist, pc] : cols) {
      row.push_back(pct(dist->cdf_percent(x)));
      if (cmp)
        row.push_back(pc ? pct(pc->at(x)) : "");
    }
    d.row(row);
  }
  d.print(out, cmp ? "duration CDF, % of GPU jobs <= x s (Acme: Fig. 2a for all, Fig. 6 per type)"
                   : "duration CDF, % of GPU jobs <= x s");
}

// Queueing delay, for traces that record it: per type, and as CDFs at the points of Fig. 6b/d.
void print_waits(std::ostream& out, const TraceStatistics& s, const PublishedCluster* p)
{
  if (s.all_gpu_jobs.wait_s.empty()) {
    out << "\nqueueing delay: none recorded (the trace has no wait of a GPU job: an SWF log's field 3 is -1 "
           "throughout, or the format has no such field)\n";
    return;
  }
  const bool cmp = p != nullptr;
  Table summary({"type", "jobs", "mean", "p50", "p75", "p90", "p99", "max"});
  std::vector<std::tuple<std::string, const Distribution*, const PublishedCdf*>> cols{
      {"all", &s.all_gpu_jobs.wait_s, nullptr}};
  for (const auto& [name, g, share_jobs, share_time] : groups(s)) {
    if (g->wait_s.empty())
      continue;
    std::vector<std::string> row{name, std::to_string(g->wait_s.jobs())};
    for (const auto& [label, v] : g->wait_summary())
      row.push_back(num(v));
    summary.row(row);
    if (name == "all")
      continue;
    const auto type = parse_enum<JobType>(name);
    const auto it = cmp && type ? p->queue_cdf_by_type.find(*type) : std::map<JobType, PublishedCdf>::const_iterator{};
    cols.emplace_back(name, &g->wait_s, cmp && type && it != p->queue_cdf_by_type.end() ? &it->second : nullptr);
  }
  summary.print(out, "queueing delay by type (s), over the jobs that started");
  Table cdf({"seconds <= x"}, false);
  for (const auto& [name, dist, pc] : cols) {
    cdf.header().push_back(name);
    if (cmp && pc)
      cdf.header().emplace_back("Acme");
  }
  for (int k = 0; k <= 15; ++k) {
    const double x = std::ldexp(1.0, k);
    std::vector<std::string> row{num(x)};
    for (const auto& [name, dist, pc] : cols) {
      row.push_back(pct(dist->cdf_percent(x)));
      if (cmp && pc)
        row.push_back(pct(pc->at(x)));
    }
    cdf.row(row);
  }
  cdf.print(out, cmp ? "queueing delay CDF, % of GPU jobs <= x s (Acme: Fig. 6b/d per type)"
                     : "queueing delay CDF, % of GPU jobs <= x s");
}

void print_comparison(std::ostream& out, const ComparisonReport& r)
{
  Table summary({"quantity", "unit", "trace", "Acme", "ratio"});
  for (const auto& v : r.summary)
    summary.row({v.key, v.unit, num(v.trace), num(v.published), v.ratio ? fmt::format("{:.3f}", *v.ratio) : "-"});
  summary.print(out, "cluster summary vs Acme (cluster_summary.csv)");
  Table gaps({"curve", "figure", "points", "largest |gap|", "at x", "trace - Acme"});
  for (const auto& c : r.cdfs)
    gaps.row({c.id, c.figure, std::to_string(c.points.size()), pct(c.max_abs_gap_points), num(c.max_gap_x),
              gap(c.max_gap_signed_points)});
  gaps.print(out, "largest CDF gaps vs Acme " + r.cluster + ", percentage points at the published x");
  if (!r.queue_cdfs.empty()) {
    Table queue_gaps({"curve", "figure", "points", "largest |gap|", "at x", "trace - Acme"});
    for (const auto& c : r.queue_cdfs)
      queue_gaps.row({c.id, c.figure, std::to_string(c.points.size()), pct(c.max_abs_gap_points), num(c.max_gap_x),
                      gap(c.max_gap_signed_points)});
    queue_gaps.print(out, "largest queueing-delay CDF gaps vs Acme " + r.cluster + ", percentage points");
  }
  out << fmt::format("\nlargest CDF gap: {} points; largest type/state share gap: {} points\n",
                     pct(r.max_cdf_gap_points()), pct(r.max_share_gap_points()));
  if (!r.queue_cdfs.empty())
    out << fmt::format("largest queueing-delay CDF gap: {} points\n", pct(r.max_queue_gap_points()));
  if (r.unpublished_type_jobs)
    out << fmt::format("{} GPU jobs of types the Acme {} treemap does not show are left out of the type shares\n",
                       r.unpublished_type_jobs, r.cluster);
}

} // namespace

void print_trace_stats_text(std::ostream& out, const TraceStatsSource& o, const TraceStatistics& s,
                            const PublishedCluster* p, const ComparisonReport* r)
{
  out << fmt::format("trace {} (format {}): {} jobs, submitted over {:.2f} days\n", o.trace, to_string(o.format),
                     s.jobs, s.span_s / 86400.0);
  out << fmt::format("{} GPU jobs; {} CPU-only jobs are left out below, as in the published figures\n", s.gpu_jobs,
                     s.cpu_jobs);
  if (s.gpu_jobs == 0)
    out << "the trace has no GPU jobs: every statistic below is undefined (-)\n";
  if (s.skipped_rows)
    out << fmt::format("{} bad rows skipped\n", s.skipped_rows);
  if (s.dropped_unknown)
    out << fmt::format("{} jobs of unknown submit time, run time or size dropped\n", s.dropped_unknown);
  if (r)
    out << fmt::format("compared with Acme {} ({})\n", r->cluster, ACME_CITATION);
  print_types(out, s, r);
  print_cdfs(out, s, p);
  print_waits(out, s, p);
  if (r)
    print_comparison(out, *r);
}

} // namespace acmesim
