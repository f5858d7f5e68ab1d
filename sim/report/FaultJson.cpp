// The failure, checkpoint and recovery results in summary.json: lost GPU-hours by cause, failure
// counts, and per training job its effective training time ratio.
#include "sim/report/FaultReports.hpp"

#include "sim/report/Statistics.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

namespace acmesim {

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

Json failure_counts(const Run& run)
{
  const FailureCounts& c = run.statistics().failure_counts();
  const auto& applied = run.statistics().applied_failures();
  std::map<std::string, std::size_t> by_category;
  std::map<std::string, std::size_t> by_component;
  for (const auto& e : applied) {
    by_category[std::string(to_string(e.category))]++;
    by_component[std::string(to_string(e.component))]++;
  }
  Json categories = Json::object();
  for (FailureCategory cat : enum_values<FailureCategory>())
    categories[std::string(to_string(cat))] = by_category[std::string(to_string(cat))];
  Json components = Json::object();
  for (Component comp : enum_values<Component>())
    components[std::string(to_string(comp))] = by_component[std::string(to_string(comp))];
  return Json{{"applied", applied.size()},
              {"on_components_already_down", c.on_components_already_down},
              {"lemon_failures_avoided", c.lemon_failures_avoided},
              {"job_interruptions", c.job_interruptions},
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

Json training_jobs(const Run& run)
{
  Json jobs = Json::array();
  std::vector<double> ettrs;
  std::size_t interruptions = 0;
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    if (job.type != JobType::Pretrain || job.cpu_only())
      continue;
    const JobRecord& record = run.jobs().record(job.id);
    const JobFaultStats* stats = run.statistics().fault_stats(job.id);
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
