#include "models/acme/TraceComparison.hpp"

#include <cmath>
#include <stdexcept>

namespace acmesim {

namespace {

std::optional<double> difference(std::optional<double> trace, std::optional<double> published)
{
  if (!trace || !published)
    return std::nullopt;
  return *trace - *published;
}

std::optional<double> largest(std::optional<double> a, std::optional<double> b)
{
  if (!a)
    return b;
  if (!b)
    return a;
  return std::max(*a, *b);
}

ShareComparison share(std::string key, std::optional<double> trace, std::optional<double> published)
{
  return {std::move(key), trace, published, difference(trace, published)};
}

std::optional<double> percent_of(double part, double total)
{
  if (!(total > 0))
    return std::nullopt;
  return 100.0 * part / total;
}

CdfComparison named(CdfComparison c, std::string id, std::string figure, std::string description,
                    std::optional<JobType> type = std::nullopt)
{
  c.id = std::move(id);
  c.figure = std::move(figure);
  c.description = std::move(description);
  c.type = type;
  return c;
}

// Fig. 4: shares over the GPU jobs of the published types only, so a trace that has the types
// the authors dropped is compared on the same footing as the figure.
void compare_type_shares(const TraceStatistics& stats, const PublishedCluster& published, ComparisonReport& r)
{
  double jobs = 0, gpu_seconds = 0;
  for (JobType t : enum_values<JobType>()) {
    if (published.type_share_of_jobs_percent.count(t) || published.type_share_of_gpu_time_percent.count(t)) {
      jobs += static_cast<double>(stats.of(t).jobs);
      gpu_seconds += stats.of(t).gpu_seconds;
    } else {
      r.unpublished_type_jobs += stats.of(t).jobs;
    }
  }
  for (JobType t : enum_values<JobType>()) {
    const auto name = std::string(to_string(t));
    if (const auto it = published.type_share_of_jobs_percent.find(t); it != published.type_share_of_jobs_percent.end())
      r.type_share_of_jobs.push_back(share(name, percent_of(static_cast<double>(stats.of(t).jobs), jobs), it->second));
    if (const auto it = published.type_share_of_gpu_time_percent.find(t);
        it != published.type_share_of_gpu_time_percent.end())
      r.type_share_of_gpu_time.push_back(share(name, percent_of(stats.of(t).gpu_seconds, gpu_seconds), it->second));
  }
}

void compare_state_shares(const TraceStatistics& stats, const PublishedCluster& published, ComparisonReport& r)
{
  const GroupStatistics& all = stats.all_gpu_jobs;
  for (JobState bucket : PUBLISHED_STATES) {
    double jobs = 0, gpu_seconds = 0;
    for (JobState s : enum_values<JobState>()) {
      if (published_state_bucket(s) != bucket)
        continue;
      jobs += static_cast<double>(all.state_jobs[static_cast<std::size_t>(s)]);
      gpu_seconds += all.state_gpu_seconds[static_cast<std::size_t>(s)];
    }
    const auto name = std::string(to_string(bucket));
    if (const auto it = published.state_share_of_jobs_percent.find(bucket);
        it != published.state_share_of_jobs_percent.end())
      r.state_share_of_jobs.push_back(share(name, percent_of(jobs, static_cast<double>(all.jobs)), it->second));
    if (const auto it = published.state_share_of_gpu_time_percent.find(bucket);
        it != published.state_share_of_gpu_time_percent.end())
      r.state_share_of_gpu_time.push_back(share(name, percent_of(gpu_seconds, all.gpu_seconds), it->second));
  }
}

void compare_summary(const TraceStatistics& stats, const PublishedCluster& published, ComparisonReport& r)
{
  const auto add = [&](std::string key, std::string unit, std::optional<double> trace,
                       std::optional<double> value) {
    if (!value)
      return;
    std::optional<double> ratio;
    if (trace && *value != 0)
      ratio = *trace / *value;
    r.summary.push_back({std::move(key), std::move(unit), trace, value, ratio});
  };
  const auto job_num = published.summary_value("job_num");
  const auto cpu_job_num = published.summary_value("cpu_job_num");
  add("cpu_job_share_percent", "percent", stats.cpu_job_share_percent(),
      job_num && cpu_job_num ? percent_of(*cpu_job_num, *job_num) : std::nullopt);
  const GroupStatistics& all = stats.all_gpu_jobs;
  add("avg_gpu_num", "GPUs", all.gpus.mean(), published.summary_value("avg_gpu_num"));
  add("med_gpu_num", "GPUs", all.gpus.quantile(0.5), published.summary_value("med_gpu_num"));
  add("max_gpu", "GPUs", all.gpus.max(), published.summary_value("max_gpu"));
  add("avg_run_time_gpu", "s", all.duration_s.mean(), published.summary_value("avg_run_time_gpu"));
  add("med_run_time_gpu", "s", all.duration_s.quantile(0.5), published.summary_value("med_run_time_gpu"));
  add("max_run_time_gpu", "s", all.duration_s.max(), published.summary_value("max_run_time_gpu"));
  if (!all.wait_s.empty()) {
    add("avg_que_time_gpu", "s", all.wait_s.mean(), published.summary_value("avg_que_time_gpu"));
    add("med_que_time_gpu", "s", all.wait_s.quantile(0.5), published.summary_value("med_que_time_gpu"));
  }
  // The load a trace offers: GPU time per day of its span (first to last submission).
  const auto per_day_hours = [](std::optional<double> gpu_seconds_per_day) {
    return gpu_seconds_per_day ? std::optional(*gpu_seconds_per_day / 3600) : std::nullopt;
  };
  add("gpu_hours_per_day", "GPU-h",
      per_day_hours(stats.span_s > 0 ? std::optional(all.gpu_seconds / (stats.span_s / 86400)) : std::nullopt),
      per_day_hours(published.gpu_seconds_per_day()));
}

} // namespace

CdfComparison compare_cdf(const Distribution& trace, CdfWeighting weighting, const PublishedCdf& published)
{
  CdfComparison c;
  for (std::size_t i = 0; i < published.x.size(); ++i) {
    CdfPointGap p;
    p.x = published.x[i];
    p.published_percent = published.percent[i];
    p.trace_percent = trace.cdf_percent(p.x, weighting);
    p.gap_points = difference(p.trace_percent, p.published_percent);
    // Strictly greater: ties keep the first (smallest) x, so the result does not depend on rounding.
    if (p.gap_points && (!c.max_abs_gap_points || std::abs(*p.gap_points) > *c.max_abs_gap_points)) {
      c.max_abs_gap_points = std::abs(*p.gap_points);
      c.max_gap_x = p.x;
      c.max_gap_signed_points = p.gap_points;
    }
    c.points.push_back(p);
  }
  return c;
}

ComparisonReport compare_with_published(const TraceStatistics& stats, const PublishedCluster& published)
{
  ComparisonReport r;
  r.cluster = published.name;
  const GroupStatistics& all = stats.all_gpu_jobs;
  if (!published.duration_cdf.empty())
    r.cdfs.push_back(named(compare_cdf(all.duration_s, CdfWeighting::Jobs, published.duration_cdf), "fig2a_duration",
                           "Fig. 2a", "GPU-job duration (s), % of GPU jobs <= x"));
  if (!published.gpu_count_cdf_by_jobs.empty())
    r.cdfs.push_back(named(compare_cdf(all.gpus, CdfWeighting::Jobs, published.gpu_count_cdf_by_jobs),
                           "fig3_gpus_by_jobs", "Fig. 3", "GPUs per job, % of GPU jobs with <= x GPUs"));
  if (!published.gpu_count_cdf_by_gpu_time.empty())
    r.cdfs.push_back(named(compare_cdf(all.gpus, CdfWeighting::GpuTime, published.gpu_count_cdf_by_gpu_time),
                           "fig3_gpus_by_gpu_time", "Fig. 3", "GPUs per job, % of GPU time in jobs with <= x GPUs"));
  for (JobType t : enum_values<JobType>()) {
    const auto it = published.duration_cdf_by_type.find(t);
    if (it == published.duration_cdf_by_type.end())
      continue;
    const auto name = std::string(to_string(t));
    r.cdfs.push_back(named(compare_cdf(stats.of(t).duration_s, CdfWeighting::Jobs, it->second),
                           "fig6_duration_" + name, "Fig. 6", name + " job duration (s), % of " + name + " jobs <= x",
                           t));
  }
  for (JobType t : enum_values<JobType>()) {
    const auto it = published.queue_cdf_by_type.find(t);
    if (it == published.queue_cdf_by_type.end() || stats.of(t).wait_s.empty())
      continue;
    const auto name = std::string(to_string(t));
    r.queue_cdfs.push_back(named(compare_cdf(stats.of(t).wait_s, CdfWeighting::Jobs, it->second),
                                 "fig6_queue_" + name, "Fig. 6",
                                 name + " queueing delay (s), % of " + name + " jobs <= x", t));
  }
  compare_type_shares(stats, published, r);
  compare_state_shares(stats, published, r);
  for (const auto& [type, box] : published.gpu_box_by_type)
    r.gpu_boxes.push_back({type, stats.of(type).gpus.box(), box});
  compare_summary(stats, published, r);
  return r;
}

ComparisonReport compare_with_published(const TraceStatistics& stats, const PublishedAcme& published,
                                        std::string_view cluster)
{
  const PublishedCluster* c = published.find(cluster);
  if (!c)
    throw std::invalid_argument("no published Acme values for cluster '" + std::string(cluster) + "'");
  return compare_with_published(stats, *c);
}

std::optional<double> ComparisonReport::max_cdf_gap_points() const
{
  std::optional<double> m;
  for (const auto& c : cdfs)
    m = largest(m, c.max_abs_gap_points);
  return m;
}

std::optional<double> ComparisonReport::max_queue_gap_points() const
{
  std::optional<double> m;
  for (const auto& c : queue_cdfs)
    m = largest(m, c.max_abs_gap_points);
  return m;
}

std::optional<double> ComparisonReport::max_share_gap_points() const
{
  std::optional<double> m;
  for (const auto* list :
       {&type_share_of_jobs, &type_share_of_gpu_time, &state_share_of_jobs, &state_share_of_gpu_time})
    for (const auto& s : *list)
      if (s.gap_points)
        m = largest(m, std::abs(*s.gap_points));
  return m;
}

const CdfComparison* ComparisonReport::find_cdf(std::string_view id) const
{
  for (const auto& c : cdfs)
    if (c.id == id)
      return &c;
  return nullptr;
}

} // namespace acmesim
