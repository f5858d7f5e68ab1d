#include "sim/report/RunMetrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <utility>
#include <stdexcept>

namespace acmesim {

namespace {

using P = Presence;
using B = Better;

// Placeholders and the names each stands for.
constexpr std::string_view TYPE = "<type>";
constexpr std::string_view CAUSE = "<cause>";

std::vector<std::string> placeholder_values(std::string_view placeholder)
{
  std::vector<std::string> out;
  if (placeholder == TYPE)
    for (const JobType t : enum_values<JobType>())
      out.emplace_back(to_string(t));
  if (placeholder == CAUSE) // the causes every run reports; communication only with the network model
    for (const GpuState s : LOST_GPU_STATES)
      if (state_reported(s, false))
        out.emplace_back(to_string(s));
  return out;
}

} // namespace

const std::vector<MetricDecl>& metric_table()
{
  static const std::vector<MetricDecl> table{
      {MAKESPAN_METRIC, "s", B::Lower, P::Always, true, "makespan: from the first submission to the end of the last job"},
      {"wait_s.all.mean", "s", B::Lower, P::WhenMeasured, true, "mean queueing delay of GPU jobs"},
      {"wait_s.all.p95", "s", B::Lower, P::WhenMeasured, false, "95th percentile queueing delay of GPU jobs"},
      {"jct_s.all.mean", "s", B::Lower, P::WhenMeasured, true, "mean completion time (wait and run) of GPU jobs"},
      {"jct_s.all.p95", "s", B::Lower, P::WhenMeasured, false, "95th percentile completion time of GPU jobs"},
      {"wait_s.by_type.<type>.mean", "s", B::Lower, P::WhenMeasured, false,
       "mean queueing delay of the type's GPU jobs"},
      {"wait_s.by_type.<type>.p95", "s", B::Lower, P::WhenMeasured, false,
       "95th percentile queueing delay of the type's GPU jobs"},
      {"jct_s.by_type.<type>.mean", "s", B::Lower, P::WhenMeasured, false,
       "mean completion time of the type's GPU jobs"},
      {"jct_s.by_type.<type>.p95", "s", B::Lower, P::WhenMeasured, false,
       "95th percentile completion time of the type's GPU jobs"},
      {"utilisation.mean_gpu_busy", "share", B::Higher, P::Always, true,
       "share of all GPU time doing work that is kept"},
      {"utilisation.mean_gpu_allocated", "share", B::Higher, P::Always, false,
       "share of all GPU time allocated to jobs (busy or stranded)"},
      {"utilisation.gpu_free_while_queued", "share", B::Lower, P::Always, false,
       "share of the GPU time while a GPU job was queued that was free on nodes in service"},
      {"utilisation.cpu.mean_busy", "share", B::Neither, P::Always, false,
       "share of all CPU core-time held by running jobs, at most all cores"},
      {"utilisation.cpu.mean_demand", "share", B::Neither, P::Always, false,
       "CPU cores running jobs held over the cluster's, time-averaged (above 1: CPUs oversubscribed)"},
      {"utilisation.cpu.over_capacity_share", "share", B::Lower, P::Always, false,
       "share of the run's time with more CPU cores held than the cluster has (CPUs are not capacity)"},
      {"lost_gpu_hours.total", "GPU-h", B::Lower, P::Always, true,
       "GPU-hours of work lost, all causes (capacity unavailable is apart)"},
      {"lost_gpu_hours.<cause>", "GPU-h", B::Lower, P::Always, false, "GPU-hours lost to one cause (docs/outputs.md)"},
      {"lost_gpu_hours.communication", "GPU-h", B::Lower, P::WhenMeasured, false,
       "GPU-hours of training slowed by the network (with the network model)"},
      {"unavailable_gpu_hours.total", "GPU-h", B::Lower, P::Always, false,
       "GPU-hours of capacity no job could use: nodes down, spares held back, GPUs stranded"},
      {"unavailable_gpu_hours.down", "GPU-h", B::Lower, P::Always, false, "GPU-hours of nodes out of service"},
      {"network.slowdown.all.mean", "ratio", B::Lower, P::WhenMeasured, false,
       "mean slowdown of GPU jobs by the network (with the network model)"},
      {"network.slowdown.all.p95", "ratio", B::Lower, P::WhenMeasured, false,
       "95th percentile slowdown of GPU jobs by the network"},
      {"network.slowdown.by_type.<type>.mean", "ratio", B::Lower, P::WhenMeasured, false,
       "mean slowdown of the type's GPU jobs by the network"},
      {"network.slowdown.by_type.<type>.p95", "ratio", B::Lower, P::WhenMeasured, false,
       "95th percentile slowdown of the type's GPU jobs by the network"},
      {"network.nic_utilisation.mean", "share", B::Neither, P::WhenMeasured, false,
       "mean load of the nodes' compute NICs, each direction over its bandwidth"},
      {"energy.it_kwh", "kWh", B::Lower, P::WhenMeasured, true,
       "energy of the GPUs and servers (docs/energy.md; GPU clusters: a CPU machine has no power model)"},
      {FACILITY_KWH_METRIC, "kWh", B::Lower, P::WhenMeasured, false, "IT energy times the PUE"},
      {"energy.mean_it_kw", "kW", B::Lower, P::WhenMeasured, false, "mean IT power"},
      {"energy.peak_it_kw", "kW", B::Lower, P::WhenMeasured, false,
       "highest IT power over a bin of utilisation.csv: what the facility must supply"},
      {REJECTED_JOBS_METRIC, "jobs", B::Lower, P::Always, false, "jobs larger than every pod, never started"},
      {"training.ettr.mean", "ratio", B::Higher, P::WhenMeasured, false,
       "mean effective training time ratio of pretraining jobs"},
      {"training.ettr_large.mean", "ratio", B::Higher, P::WhenMeasured, false,
       "mean effective training time ratio of pretraining jobs of 256 GPUs or more"},
      {"evaluation.feedback_latency_s.mean", "s", B::Lower, P::WhenMeasured, false,
       "mean time from a checkpoint to the end of its evaluation campaign"},
      {"evaluation.feedback_latency_s.p95", "s", B::Lower, P::WhenMeasured, false,
       "95th percentile time from a checkpoint to the end of its evaluation campaign"},
  };
  return table;
}

const std::vector<MetricName>& metric_names()
{
  static const std::vector<MetricName> names = [] {
    std::vector<MetricName> out;
    for (const MetricDecl& decl : metric_table()) {
      const std::string path(decl.path);
      const auto open = path.find('<');
      if (open == std::string::npos) {
        out.push_back({path, &decl});
        continue;
      }
      const auto close = path.find('>', open);
      const std::string placeholder = path.substr(open, close - open + 1);
      for (const std::string& value : placeholder_values(placeholder))
        out.push_back({path.substr(0, open) + value + path.substr(close + 1), &decl});
    }
    return out;
  }();
  return names;
}

const MetricDecl* find_metric(std::string_view name)
{
  for (const MetricName& m : metric_names())
    if (m.name == name)
      return m.decl;
  return nullptr;
}

namespace {

std::vector<std::string_view> segments(std::string_view path)
{
  std::vector<std::string_view> out;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find('.', start), path.size());
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Whether the parts of `short_path` appear in `path` in order: "wait_s.Eval.p95" in
// "wait_s.by_type.Eval.p95".
bool parts_in_order(std::string_view short_path, std::string_view path)
{
  const auto wanted = segments(short_path), have = segments(path);
  std::size_t next = 0;
  for (const std::string_view part : have)
    if (next < wanted.size() && part == wanted[next])
      ++next;
  return next == wanted.size();
}

// Levenshtein distance, one row at a time.
std::size_t edits(std::string_view a, std::string_view b)
{
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

} // namespace

std::string nearest_metric(std::string_view name)
{
  // A name whose parts all stand in a declared one, in order, most likely lacks a level of the path
  // ("wait_s.mean" for "wait_s.all.mean"); otherwise the declared name fewest edits away.
  const auto& names = metric_names();
  const bool some_contain = std::any_of(names.begin(), names.end(),
                                        [&](const MetricName& m) { return parts_in_order(name, m.name); });
  const auto rank = [&](const MetricName& m) {
    return std::pair{some_contain && !parts_in_order(name, m.name), edits(name, m.name)};
  };
  return std::min_element(names.begin(), names.end(),
                          [&](const MetricName& x, const MetricName& y) { return rank(x) < rank(y); })
      ->name;
}

namespace {

// The value at a dotted path of the summary's JSON; nullptr if a part of it is absent.
const Json* at_path(const Json& json, std::string_view path)
{
  const Json* node = &json;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find('.', start), path.size());
    const std::string key(path.substr(start, end - start));
    if (!node->is_object() || !node->contains(key))
      return nullptr;
    node = &(*node)[key];
    start = end + 1;
  }
  return node;
}

} // namespace

std::vector<RunMetric> run_metrics(const RunSummary& summary)
{
  const Json json = summary;
  std::vector<RunMetric> out;
  for (const MetricName& m : metric_names()) {
    const Json* value = at_path(json, m.name);
    if (value && value->is_number()) {
      out.push_back({m.name, value->get<double>()});
      continue;
    }
    if (m.decl->presence == Presence::Always)
      throw std::runtime_error("summary.json has no number at '" + m.name + "'");
  }
  return out;
}

std::vector<RunMetric> read_run_metrics(const std::filesystem::path& dir)
{
  const RunSummary summary = read_run_summary(dir);
  try {
    return run_metrics(summary);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error((dir / "summary.json").string() + ": " + e.what());
  }
}

namespace {

std::string when(const MetricDecl& decl)
{
  return decl.presence == Presence::Always ? "every run" : "runs that have it";
}

std::string placeholder_note()
{
  return fmt::format("<type> is a job type ({}); <cause> a cause of lost GPU-hours every run reports ({})",
                     enum_name_list<JobType>(), join_names(placeholder_values(CAUSE)));
}

} // namespace

std::string metric_reference_text()
{
  std::string out = "metrics (compare, sweep and plan targets; names are paths in summary.json):\n";
  for (const MetricDecl& d : metric_table())
    out += fmt::format("  {:<40} {:<6} {:<15} {}\n", d.path, d.unit, fmt::format("{} better", to_string(d.better)),
                       d.help);
  return out + "  " + placeholder_note() + "\n";
}

std::string metric_reference_markdown()
{
  std::string out = "# Metrics\n\n"
                    "<!-- Generated by `acmesim list metrics --markdown` from the table in sim/report/RunMetrics.cpp;\n"
                    "     do not edit (a test fails while it differs). -->\n\n"
                    "What `acmesim compare` compares, `acmesim sweep` writes to results.csv and a plan's targets and\n"
                    "cost name. A metric's name is its path in a run's summary.json; " +
                    placeholder_note() +
                    ". A metric not every run has is left out of the runs without it (a job type without GPU jobs, "
                    "a run without the network model).\n\n"
                    "| metric | unit | better | in | headline | what |\n|---|---|---|---|---|---|\n";
  for (const MetricDecl& d : metric_table())
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", d.path, d.unit, to_string(d.better), when(d),
                       d.headline ? "yes" : "", d.help);
  return out + "\nHeadline metrics are the figures `acmesim plot` draws for a sweep.\n";
}

Json metric_table_json()
{
  Json out = Json::array();
  for (const MetricName& m : metric_names())
    out.push_back({{"name", m.name},
                   {"unit", m.decl->unit},
                   {"better", to_string(m.decl->better)},
                   {"headline", m.decl->headline},
                   {"help", m.decl->help}});
  return out;
}

} // namespace acmesim
