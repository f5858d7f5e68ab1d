#include "sim/report/TraceStatsReport.hpp"

namespace acmesim {

using nlohmann::ordered_json;

namespace detail {

// The six types, then all GPU jobs: the rows of every per-type table.
std::vector<Group> groups(const TraceStatistics& s)
{
  std::vector<Group> g;
  for (JobType t : enum_values<JobType>())
    g.push_back({std::string(to_string(t)), &s.of(t), s.share_of_jobs_percent(t), s.share_of_gpu_time_percent(t)});
  g.push_back({"all", &s.all_gpu_jobs, s.gpu_jobs ? std::optional(100.0) : std::nullopt,
               s.all_gpu_jobs.gpu_seconds > 0 ? std::optional(100.0) : std::nullopt});
  return g;
}

} // namespace detail

namespace {

using detail::Group;
using detail::groups;

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
  // Queueing delay, when the trace records it.
  if (!g.wait_s.empty()) {
    j["jobs_with_wait"] = g.wait_s.jobs();
    j["wait_s"] = named_values(g.wait_summary());
  }
  for (const bool by_time : {false, true}) {
    ordered_json states = ordered_json::object();
    for (JobState s : enum_values<JobState>())
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

ordered_json cdfs_json(const std::vector<CdfComparison>& curves)
{
  ordered_json cdfs = ordered_json::array();
  for (const auto& c : curves) {
    ordered_json points = ordered_json::array();
    for (const auto& p : c.points)
      points.push_back({{"x", p.x}, {"trace", value(p.trace_percent)}, {"published", p.published_percent},
                        {"gap_points", value(p.gap_points)}});
    cdfs.push_back({{"id", c.id}, {"figure", c.figure}, {"description", c.description},
                    {"type", c.type ? ordered_json(to_string(*c.type)) : ordered_json(nullptr)},
                    {"max_abs_gap_points", value(c.max_abs_gap_points)}, {"max_gap_x", value(c.max_gap_x)},
                    {"max_gap_signed_points", value(c.max_gap_signed_points)}, {"points", points}});
  }
  return cdfs;
}

ordered_json comparison_json(const ComparisonReport& r)
{
  ordered_json j{{"cluster", r.cluster}, {"source", ACME_CITATION}, {"max_cdf_gap_points", value(r.max_cdf_gap_points())},
                 {"max_share_gap_points", value(r.max_share_gap_points())}};
  j["cdfs"] = cdfs_json(r.cdfs);
  if (!r.queue_cdfs.empty()) {
    j["max_queue_gap_points"] = value(r.max_queue_gap_points());
    j["queue_cdfs"] = cdfs_json(r.queue_cdfs);
  }
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

} // namespace

ordered_json trace_stats_json(const TraceStatsSource& o, const TraceStatistics& s, const ComparisonReport* r)
{
  ordered_json j{{"source", o.trace},       {"format", to_string(o.format)}, {"jobs", s.jobs},
                 {"gpu_jobs", s.gpu_jobs},  {"cpu_jobs", s.cpu_jobs},        {"skipped_rows", s.skipped_rows},
                 {"dropped_unknown", s.dropped_unknown}, {"span_days", s.span_s / 86400.0}};
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
  for (JobType t : enum_values<JobType>())
    duration_cdf[std::string(to_string(t))] = ordered_json::array();
  for (double x : default_duration_points(s)) {
    duration_cdf["x"].push_back(x);
    duration_cdf["all"].push_back(value(s.all_gpu_jobs.duration_s.cdf_percent(x)));
    for (JobType t : enum_values<JobType>())
      duration_cdf[std::string(to_string(t))].push_back(value(s.of(t).duration_s.cdf_percent(x)));
  }
  j["duration_cdf_percent_of_jobs"] = duration_cdf;
  if (r)
    j["against"] = comparison_json(*r);
  return j;
}

} // namespace acmesim
