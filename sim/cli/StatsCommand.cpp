// `acmesim workload stats TRACE [--format F] [--against seren|kalos] [--json] [--on-bad-row error|skip]`:
// the statistics of a trace in the terms of the Acme paper, optionally next to the published
// values (docs/workload-stats.md). The numbers come from models/workload; this file only reads
// the trace, fetches the embedded published CSVs and prints.
#include "models/workload/PublishedAcme.hpp"
#include "models/workload/TraceComparison.hpp"
#include "models/workload/TraceFormat.hpp"
#include "models/workload/TraceStatistics.hpp"
#include "sim/cli/Commands.hpp"
#include "sim/cli/WorkloadCommand.hpp"
#include "sim/config/EmbeddedConfigs.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <set>
#include <tuple>

namespace po = boost::program_options;
using nlohmann::ordered_json;

namespace acmesim {

namespace {

constexpr const char* CITATION = "Hu et al., NSDI'24, AcmeTrace release (CC BY 4.0)";
constexpr const char* USAGE = "usage: acmesim workload stats TRACE [--format F] [--against seren|kalos] [--json] "
                              "[--on-bad-row error|skip]";

struct StatsOptions {
  std::string trace;
  TraceFormat format = TraceFormat::Acme;
  std::optional<std::string> against; // "seren" or "kalos"
  bool json = false;
  BadRowPolicy on_bad_row = BadRowPolicy::Error;
};

// nullopt when --help was asked for and printed.
std::optional<StatsOptions> parse_options(const std::vector<std::string>& args)
{
  po::options_description options("workload stats options");
  options.add_options()("help,h", "show this help")("trace", po::value<std::string>(), "trace file")(
      "format", po::value<std::string>(), ("trace format: " + trace_format_names() + " (default: from the file name, "
                                           "else acme)").c_str())(
      "against", po::value<std::string>(), "compare with the published Acme values of seren or kalos")(
      "json", "one JSON document on stdout instead of the text report")(
      "on-bad-row", po::value<std::string>()->default_value("error"), "error or skip");
  po::positional_options_description positional;
  positional.add("trace", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (vm.count("help")) {
    std::cout << USAGE << "\n\n" << options;
    return std::nullopt;
  }
  if (!vm.count("trace"))
    throw UsageError("workload stats needs a trace file");
  StatsOptions o;
  o.trace = vm["trace"].as<std::string>();
  if (vm.count("format")) {
    const auto f = parse_trace_format(vm["format"].as<std::string>());
    if (!f)
      throw UsageError("unknown --format '" + vm["format"].as<std::string>() + "'; expected " + trace_format_names());
    o.format = *f;
  } else {
    o.format = format_from_path(o.trace).value_or(TraceFormat::Acme);
  }
  if (vm.count("against")) {
    const std::string a = vm["against"].as<std::string>();
    if (a != "seren" && a != "kalos")
      throw UsageError("unknown --against '" + a + "'; expected seren or kalos");
    o.against = a;
  }
  o.json = vm.count("json") > 0;
  const std::string policy = vm["on-bad-row"].as<std::string>();
  if (policy != "error" && policy != "skip")
    throw UsageError("unknown --on-bad-row '" + policy + "'; expected error or skip");
  o.on_bad_row = policy == "skip" ? BadRowPolicy::Skip : BadRowPolicy::Error;
  return o;
}

PublishedAcme embedded_published_acme()
{
  std::array<std::string_view, PUBLISHED_ACME_FILES.size()> texts;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto text = embedded_config_file("acme-published/" + std::string(PUBLISHED_ACME_FILES[i]));
    if (!text) // a build problem, not the user's: exit 1
      throw std::runtime_error("the binary lacks the embedded file acme-published/" +
                               std::string(PUBLISHED_ACME_FILES[i]));
    texts[i] = *text;
  }
  return parse_published_acme({texts[0], texts[1], texts[2], texts[3], texts[4]});
}

struct Group {
  std::string name;
  const GroupStatistics* stats;
  std::optional<double> share_of_jobs, share_of_gpu_time;
};

// The six types, then all GPU jobs: the rows of every per-type table.
std::vector<Group> groups(const TraceStatistics& s)
{
  std::vector<Group> g;
  for (JobType t : ALL_JOB_TYPES)
    g.push_back({std::string(to_string(t)), &s.of(t), s.share_of_jobs_percent(t), s.share_of_gpu_time_percent(t)});
  g.push_back({"all", &s.all_gpu_jobs, s.gpu_jobs ? std::optional(100.0) : std::nullopt,
               s.all_gpu_jobs.gpu_seconds > 0 ? std::optional(100.0) : std::nullopt});
  return g;
}

// --- JSON ------------------------------------------------------------------------------------

ordered_json value(std::optional<double> v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

ordered_json box_json(const std::optional<BoxStats>& b)
{
  if (!b)
    return nullptr;
  return {{"q1", b->q1}, {"median", b->median}, {"q3", b->q3}, {"whisker_low", b->whisker_low},
          {"whisker_high", b->whisker_high}};
}

ordered_json named_values(const std::vector<std::pair<std::string, std::optional<double>>>& values)
{
  ordered_json j = ordered_json::object();
  for (const auto& [name, v] : values)
    j[name] = value(v);
  return j;
}

ordered_json group_json(const Group& group)
{
  const GroupStatistics& g = *group.stats;
  ordered_json j{{"jobs", g.jobs},
                 {"share_of_jobs_percent", value(group.share_of_jobs)},
                 {"gpu_seconds", g.gpu_seconds},
                 {"share_of_gpu_time_percent", value(group.share_of_gpu_time)},
                 {"gpus", named_values(g.gpu_summary())},
                 {"duration_s", named_values(g.duration_summary())}};
  for (const bool by_time : {false, true}) {
    ordered_json states = ordered_json::object();
    for (JobState s : ALL_JOB_STATES)
      states[std::string(to_string(s))] =
          value(by_time ? g.state_share_of_gpu_time_percent(s) : g.state_share_of_jobs_percent(s));
    j[by_time ? "state_share_of_gpu_time_percent" : "state_share_of_jobs_percent"] = states;
  }
  return j;
}

ordered_json shares_json(const std::vector<ShareComparison>& shares)
{
  ordered_json a = ordered_json::array();
  for (const auto& s : shares)
    a.push_back({{"key", s.key}, {"trace", value(s.trace_percent)}, {"published", value(s.published_percent)},
                 {"gap_points", value(s.gap_points)}});
  return a;
}

ordered_json comparison_json(const ComparisonReport& r)
{
  ordered_json j{{"cluster", r.cluster}, {"source", CITATION}, {"max_cdf_gap_points", value(r.max_cdf_gap_points())},
                 {"max_share_gap_points", value(r.max_share_gap_points())}};
  ordered_json cdfs = ordered_json::array();
  for (const auto& c : r.cdfs) {
    ordered_json points = ordered_json::array();
    for (const auto& p : c.points)
      points.push_back({{"x", p.x}, {"trace", value(p.trace_percent)}, {"published", p.published_percent},
                        {"gap_points", value(p.gap_points)}});
    cdfs.push_back({{"id", c.id}, {"figure", c.figure}, {"description", c.description},
                    {"type", c.type ? ordered_json(to_string(*c.type)) : ordered_json(nullptr)},
                    {"max_abs_gap_points", value(c.max_abs_gap_points)}, {"max_gap_x", value(c.max_gap_x)},
                    {"max_gap_signed_points", value(c.max_gap_signed_points)}, {"points", points}});
  }
  j["cdfs"] = cdfs;
  j["type_share_of_jobs"] = shares_json(r.type_share_of_jobs);
  j["type_share_of_gpu_time"] = shares_json(r.type_share_of_gpu_time);
  j["unpublished_type_jobs"] = r.unpublished_type_jobs;
  j["state_share_of_jobs"] = shares_json(r.state_share_of_jobs);
  j["state_share_of_gpu_time"] = shares_json(r.state_share_of_gpu_time);
  ordered_json boxes = ordered_json::array();
  for (const auto& b : r.gpu_boxes)
    boxes.push_back({{"type", to_string(b.type)}, {"trace", box_json(b.trace)}, {"published", box_json(b.published)}});
  j["gpu_boxes"] = boxes;
  ordered_json summary = ordered_json::array();
  for (const auto& v : r.summary)
    summary.push_back({{"key", v.key}, {"unit", v.unit}, {"trace", value(v.trace)}, {"published", value(v.published)},
                       {"ratio", value(v.ratio)}});
  j["summary"] = summary;
  return j;
}

ordered_json stats_json(const StatsOptions& o, const TraceStatistics& s, const ComparisonReport* r)
{
  ordered_json j{{"source", o.trace},       {"format", to_string(o.format)}, {"jobs", s.jobs},
                 {"gpu_jobs", s.gpu_jobs},  {"cpu_jobs", s.cpu_jobs},        {"skipped_rows", s.skipped_rows},
                 {"span_days", s.span_s / 86400.0}};
  j["types"] = ordered_json::object();
  for (const Group& g : groups(s)) // the types, then "all"
    (g.name == "all" ? j["all_gpu_jobs"] : j["types"][g.name]) = group_json(g);
  ordered_json gpu_cdf{{"x", ordered_json::array()}, {"percent_of_jobs", ordered_json::array()},
                       {"percent_of_gpu_time", ordered_json::array()}};
  for (double x : default_gpu_count_points(s)) {
    gpu_cdf["x"].push_back(x);
    gpu_cdf["percent_of_jobs"].push_back(value(s.all_gpu_jobs.gpus.cdf_percent(x)));
    gpu_cdf["percent_of_gpu_time"].push_back(value(s.all_gpu_jobs.gpus.cdf_percent(x, CdfWeighting::GpuTime)));
  }
  j["gpu_count_cdf"] = gpu_cdf;
  ordered_json duration_cdf{{"x", ordered_json::array()}, {"all", ordered_json::array()}};
  for (JobType t : ALL_JOB_TYPES)
    duration_cdf[std::string(to_string(t))] = ordered_json::array();
  for (double x : default_duration_points(s)) {
    duration_cdf["x"].push_back(x);
    duration_cdf["all"].push_back(value(s.all_gpu_jobs.duration_s.cdf_percent(x)));
    for (JobType t : ALL_JOB_TYPES)
      duration_cdf[std::string(to_string(t))].push_back(value(s.of(t).duration_s.cdf_percent(x)));
  }
  j["duration_cdf_percent_of_jobs"] = duration_cdf;
  if (r)
    j["against"] = comparison_json(*r);
  return j;
}

// --- text ------------------------------------------------------------------------------------

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
    for (JobState st : ALL_JOB_STATES)
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
      const auto it = std::find_if(r->gpu_boxes.begin(), r->gpu_boxes.end(),
                                   [&](const auto& b) { return to_string(b.type) == name; });
      row.push_back(it == r->gpu_boxes.end() ? "" : box_text(it->published));
    }
    gpus.row(row);
    row = {name};
    for (const auto& [label, v] : g->duration_summary())
      row.push_back(num(v));
    durations.row(row);
    for (const bool by_time : {false, true}) {
      row = {name};
      for (JobState st : ALL_JOB_STATES)
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
  for (JobType t : ALL_JOB_TYPES) {
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
  out << fmt::format("\nlargest CDF gap: {} points; largest type/state share gap: {} points\n",
                     pct(r.max_cdf_gap_points()), pct(r.max_share_gap_points()));
  if (r.unpublished_type_jobs)
    out << fmt::format("{} GPU jobs of types the Acme {} treemap does not show are left out of the type shares\n",
                       r.unpublished_type_jobs, r.cluster);
}

void print_text(std::ostream& out, const StatsOptions& o, const TraceStatistics& s, const PublishedCluster* p,
                const ComparisonReport* r)
{
  out << fmt::format("trace {} (format {}): {} jobs, submitted over {:.2f} days\n", o.trace, to_string(o.format),
                     s.jobs, s.span_s / 86400.0);
  out << fmt::format("{} GPU jobs; {} CPU-only jobs are left out below, as in the published figures\n", s.gpu_jobs,
                     s.cpu_jobs);
  if (s.gpu_jobs == 0)
    out << "the trace has no GPU jobs: every statistic below is undefined (-)\n";
  if (s.skipped_rows)
    out << fmt::format("{} bad rows skipped\n", s.skipped_rows);
  if (r)
    out << fmt::format("compared with Acme {} ({})\n", r->cluster, CITATION);
  print_types(out, s, r);
  print_cdfs(out, s, p);
  if (r)
    print_comparison(out, *r);
}

} // namespace

int cmd_workload_stats(const std::vector<std::string>& args)
{
  const auto options = parse_options(args);
  if (!options)
    return EXIT_OK;
  // Published targets first: a broken build fails before a long trace is read.
  std::optional<PublishedAcme> acme;
  const PublishedCluster* published = nullptr;
  if (options->against) {
    acme = embedded_published_acme();
    published = acme->find(*options->against);
    if (!published)
      throw std::runtime_error("no embedded published values for " + *options->against);
  }
  const Workload workload = read_trace_file(options->trace, options->format, options->on_bad_row);
  const TraceStatistics stats = compute_trace_statistics(workload);
  std::optional<ComparisonReport> report;
  if (published)
    report = compare_with_published(stats, *published);
  if (options->json)
    std::cout << stats_json(*options, stats, report ? &*report : nullptr).dump(2) << '\n';
  else
    print_text(std::cout, *options, stats, published, report ? &*report : nullptr);
  return EXIT_OK;
}

} // namespace acmesim
