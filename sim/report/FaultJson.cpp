// The failure, checkpoint and recovery parts of summary.json: the resolved configuration, lost
// GPU-hours by cause, failure counts, and per training job its effective training time ratio.
#include "sim/report/FaultReports.hpp"

#include "sim/report/Statistics.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

namespace acmesim {

namespace {

Json to_json(const DurationDistribution& d)
{
  Json json{{"dist", to_string(d.kind)}};
  switch (d.kind) {
    case DurationDistribution::Kind::Exponential:
      json["mean_h"] = d.mean_s / 3600;
      break;
    case DurationDistribution::Kind::Weibull:
      json["shape"] = d.shape;
      json["scale_h"] = d.scale_s / 3600;
      break;
    case DurationDistribution::Kind::LogNormal:
      json["median_h"] = d.median_s / 3600;
      json["sigma"] = d.sigma;
      break;
    case DurationDistribution::Kind::Fixed:
      json["value_h"] = d.value_s / 3600;
      break;
  }
  return json;
}

Json failures_to_json(const FailureSpec& f)
{
  if (f.source == FailureSpec::Source::None)
    return Json{{"model", "none"}};
  if (f.source == FailureSpec::Source::Recorded)
    return Json{{"recorded", std::filesystem::path(f.recorded_path).filename().string()}};
  Json components = Json::object();
  for (Component c : enum_values<Component>()) {
    const auto& spec = f.components[static_cast<std::size_t>(c)];
    Json categories = Json::object();
    for (const auto& [category, weight] : spec.categories)
      categories[std::string(to_string(category))] = weight;
    components[std::string(to_string(c))] = Json{{"enabled", spec.enabled},
                                                 {"tbf", to_json(spec.time_between_failures)},
                                                 {"categories", categories},
                                                 {"reboot_share", spec.reboot_share},
                                                 {"reboot", to_json(spec.reboot_time)},
                                                 {"replacement", to_json(spec.replacement_time)}};
  }
  Json detection = Json::object();
  for (FailureCategory c : enum_values<FailureCategory>())
    detection[std::string(to_string(c))] = f.detection_s[static_cast<std::size_t>(c)];
  Json multipliers = Json::object();
  for (const auto& [node, m] : f.node_rate_multipliers)
    multipliers[node] = m;
  return Json{{"model", "acme"},
              {"components", components},
              {"lemon_nodes", f.lemon_nodes},
              {"lemon_multiplier", f.lemon_multiplier},
              {"node_rate_multipliers", multipliers},
              {"neighbour_probability", f.neighbour_probability},
              {"detection_s", detection}};
}

Json checkpoint_to_json(const CheckpointSpec& c)
{
  if (!c.enabled)
    return Json{{"enabled", false}};
  Json types = Json::array();
  for (JobType t : c.job_types)
    types.push_back(std::string(to_string(t)));
  Json sizes = Json::array();
  for (const auto& r : c.model_sizes)
    sizes.push_back(Json{{"max_gpus", r.max_gpus}, {"params_b", r.params_billion}});
  return Json{{"enabled", true},
              {"job_types", types},
              {"model_sizes", sizes},
              {"bytes_per_param", c.bytes_per_param},
              {"peak_tflops_per_gpu", c.peak_tflops_per_gpu},
              {"mfu", c.mfu},
              {"tokens_per_step", c.tokens_per_step},
              {"step_time_s", c.step_time_s},
              {"mode", to_string(c.mode)},
              {"interval", to_string(c.interval_policy)},
              {"interval_s", c.interval_s},
              {"interval_steps", c.interval_steps},
              {"snapshot_GBps", c.snapshot_GBps},
              {"init_s", c.init_s}};
}

} // namespace

Json fault_config_json(const Scenario& scenario)
{
  Json recovery{{"name", scenario.recovery.name}};
  for (const auto& [key, value] : scenario.recovery.params)
    recovery[key] = value;
  return Json{{"failures", failures_to_json(scenario.failures)},
              {"checkpoint", checkpoint_to_json(scenario.checkpoint)},
              {"recovery", recovery}};
}

Json lost_gpu_hours(const Ledger& ledger)
{
  Json causes = Json::object();
  double total = 0;
  for (GpuState s : LOST_GPU_STATES) {
    causes[std::string(to_string(s))] = ledger.gpu_seconds(s) / 3600.0;
    total += ledger.gpu_seconds(s);
  }
  causes["total"] = total / 3600.0;
  return causes;
}

Json failure_counts(const RunState& state)
{
  const auto& c = state.counters();
  std::map<std::string, std::size_t> by_category;
  std::map<std::string, std::size_t> by_component;
  for (const auto& e : state.applied_failures()) {
    by_category[std::string(to_string(e.category))]++;
    by_component[std::string(to_string(e.component))]++;
  }
  Json categories = Json::object();
  for (FailureCategory cat : enum_values<FailureCategory>())
    categories[std::string(to_string(cat))] = by_category[std::string(to_string(cat))];
  Json components = Json::object();
  for (Component comp : enum_values<Component>())
    components[std::string(to_string(comp))] = by_component[std::string(to_string(comp))];
  return Json{{"applied", c.failures_applied},
              {"on_components_already_down", c.failures_on_down_components},
              {"lemon_failures_avoided", c.excess_failures_cured},
              {"job_interruptions", c.interruptions},
              {"escalations", c.escalations},
              {"spare_swaps", c.spare_swaps},
              {"jobs_given_up", c.jobs_given_up},
              {"by_category", categories},
              {"by_component", components}};
}

namespace {

std::vector<double> sorted(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v;
}

} // namespace

JobTimeSplit time_split(const Job& job, const JobRecord& record, const JobFaultStats* stats)
{
  JobTimeSplit split;
  if (record.outcome != JobOutcome::Ended || job.cpu_only())
    return split;
  split.ran = true;
  split.useful_s = stats && stats->gave_up ? stats->useful_s : job.duration_s;
  const double wall = record.end_s - record.start_s;
  split.ettr = wall > 0 ? split.useful_s / wall : 1.0;
  return split;
}

Json training_jobs(const RunState& state)
{
  Json jobs = Json::array();
  std::vector<double> ettrs;
  std::size_t interruptions = 0;
  for (JobId id = 0; id < state.job_count(); ++id) {
    const Job& job = state.job(id);
    if (job.type != JobType::Pretrain || job.cpu_only())
      continue;
    const JobRecord& record = state.records()[job.id];
    const JobFaultStats* stats = state.fault_stats(job.id);
    const JobTimeSplit split = time_split(job, record, stats);
    if (!split.ran)
      continue;
    const JobFaultStats none;
    const JobFaultStats& s = stats ? *stats : none;
    ettrs.push_back(split.ettr);
    interruptions += static_cast<std::size_t>(s.interruptions);
    jobs.push_back(Json{{"job_id", job.name},
                        {"gpus", job.gpus},
                        {"wall_s", record.end_s - record.start_s},
                        {"useful_s", split.useful_s},
                        {"ettr", split.ettr},
                        {"interruptions", s.interruptions},
                        {"checkpoints", s.checkpoints},
                        {"lost_s", s.lost_s},
                        {"checkpoint_s", s.checkpoint_s},
                        {"detection_s", s.detection_s},
                        {"waiting_for_person_s", s.waiting_s},
                        {"restart_s", s.restart_s},
                        {"gave_up", s.gave_up}});
  }
  const SampleSummary ettr = summarise(ettrs);
  Json ettr_json = ettr.count == 0 ? Json{{"count", 0}, {"mean", nullptr}, {"p50", nullptr}, {"min", nullptr}}
                                   : Json{{"count", ettr.count},
                                          {"mean", ettr.mean},
                                          {"p50", ettr.p50},
                                          {"min", nearest_rank_quantile(sorted(ettrs), 0)}};
  return Json{{"ettr", ettr_json}, {"interruptions", interruptions}, {"jobs", jobs}};
}

} // namespace acmesim
