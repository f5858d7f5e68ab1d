// The evaluation part of summary.json: per campaign its makespan, where the GPU time of its
// trials went (loading, CPU waits, inference) and every trial's phase times.
#include "sim/report/EvalReports.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/report/Statistics.hpp"

namespace acmesim {

Json evaluation_summary(const Scenario& scenario, const Run& run)
{
  const auto& runs = run.campaigns();
  if (runs.empty())
    return nullptr;
  const auto& catalogue = scenario.evaluation.catalogue;
  struct Totals {
    double end = 0, load = 0, cpu_wait = 0, inference = 0, metric_on_cpu = 0;
    std::size_t trials = 0, ended = 0;
  };
  std::vector<Totals> totals(runs.size());
  std::vector<Json> trials(runs.size(), Json::array());
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    if (!job.eval_trial())
      continue;
    const EvalChunk& chunk = run.jobs().chunk(id);
    Totals& c = totals[chunk.campaign];
    ++c.trials;
    const JobRecord& record = run.jobs().record(id);
    const TrialTimes* t = run.statistics().trial_times(id);
    if (record.outcome != JobOutcome::Ended || !t)
      continue;
    ++c.ended;
    c.end = std::max(c.end, record.end_s);
    const double gpus = job.gpus;
    c.load += t->load_s * gpus;
    const bool metric_held = record.end_s <= t->gpu_release_s;
    c.cpu_wait += (t->preprocess_s + (metric_held ? t->metric_s : 0)) * gpus;
    c.inference += t->inference_s * gpus;
    c.metric_on_cpu += metric_held ? 0 : t->metric_s;
    if (runs[chunk.campaign].trigger_job >= 0)
      continue; // campaigns of a whole-cluster run are summarised, not listed trial by trial
    trials[chunk.campaign].push_back(Json{{"trial", job.name},
                                          {"dataset", catalogue.datasets[chunk.dataset].name},
                                          {"chunk", chunk.chunk},
                                          {"start_s", record.start_s},
                                          {"gpus_released_s", t->gpu_release_s},
                                          {"end_s", record.end_s},
                                          {"load_s", t->load_s},
                                          {"preprocess_s", t->preprocess_s},
                                          {"inference_s", t->inference_s},
                                          {"metric_s", t->metric_s},
                                          {"metric_on_gpu", metric_held}});
  }
  Json campaigns = Json::array();
  std::vector<double> feedback; // checkpoint written -> all its trials done
  for (std::size_t i = 0; i < totals.size(); ++i) {
    const Totals& c = totals[i];
    const CampaignRun& campaign = runs[i];
    const bool done = c.trials > 0 && c.ended == c.trials;
    const double held = c.load + c.cpu_wait + c.inference;
    Json entry{{"campaign", i},
               {"submit_s", campaign.submit_s},
               {"trials", c.trials},
               {"makespan_s", done ? Json(c.end - campaign.submit_s) : Json(nullptr)},
               {"trial_gpu_hours", Json{{"model_load", c.load / 3600},
                                        {"cpu_wait", c.cpu_wait / 3600},
                                        {"inference", c.inference / 3600},
                                        {"total_held", held / 3600}}},
               {"gpu_busy_share_of_held", held > 0 ? Json(c.inference / held) : Json(nullptr)},
               {"metric_on_cpu_s", c.metric_on_cpu}};
    if (campaign.trigger_job >= 0) {
      entry["evaluates"] = Json{{"job_id", run.jobs().job(static_cast<JobId>(campaign.trigger_job)).name},
                                {"checkpoint", campaign.checkpoint}};
      if (done)
        feedback.push_back(c.end - campaign.submit_s);
    } else {
      entry["trials_detail"] = trials[i];
    }
    campaigns.push_back(entry);
  }
  const SampleSummary f = summarise(feedback);
  return Json{{"campaigns", campaigns},
              {"feedback_latency_s", f.count == 0 ? Json{{"count", 0}, {"mean", nullptr}, {"p95", nullptr}}
                                                  : Json{{"count", f.count}, {"mean", f.mean}, {"p95", f.p95}}}};
}

} // namespace acmesim
