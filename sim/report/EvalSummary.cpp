// The evaluation part of summary.json: per campaign its makespan, where the GPU time of its trials
// went (loading, CPU waits, inference) and, for scheduled campaigns, every trial's phase times;
// the feedback latency of campaigns triggered by checkpoints.
#include "sim/report/SummaryParts.hpp"

#include <algorithm>

namespace acmesim {

namespace {

// GPU-seconds of a campaign's trials by what the GPUs were doing, and when its last trial ended.
struct CampaignTotals {
  double end = 0, load = 0, cpu_wait = 0, inference = 0, metric_on_cpu = 0;
  std::size_t trials = 0, ended = 0;
  std::vector<TrialDetail> detail;
};

std::vector<CampaignTotals> campaign_totals(const Scenario& scenario, const Run& run)
{
  const auto& runs = run.campaigns();
  std::vector<CampaignTotals> totals(runs.size());
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    if (!job.eval_trial())
      continue;
    const EvalChunk& chunk = run.jobs().chunk(id);
    CampaignTotals& c = totals[chunk.campaign];
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
    const std::string& dataset = scenario.evaluation.catalogue.datasets[chunk.dataset].name;
    c.detail.push_back(TrialDetail{*t, job.name, dataset, chunk.chunk, record.start_s, record.end_s, metric_held});
  }
  return totals;
}

} // namespace

std::optional<EvaluationSummary> summarise_evaluation(const Scenario& scenario, const Run& run)
{
  const auto& runs = run.campaigns();
  if (runs.empty())
    return std::nullopt;
  std::vector<CampaignTotals> totals = campaign_totals(scenario, run);
  EvaluationSummary evaluation;
  std::vector<double> feedback; // checkpoint written -> all its trials done
  for (std::size_t i = 0; i < totals.size(); ++i) {
    CampaignTotals& c = totals[i];
    const CampaignRun& campaign = runs[i];
    const bool done = c.trials > 0 && c.ended == c.trials;
    const double held = c.load + c.cpu_wait + c.inference;
    CampaignSummary s;
    s.campaign = i;
    s.submit_s = campaign.submit_s;
    s.trials = c.trials;
    if (done)
      s.makespan_s = c.end - campaign.submit_s;
    s.trial_gpu_hours = TrialGpuHours{c.load / 3600, c.cpu_wait / 3600, c.inference / 3600, held / 3600};
    if (held > 0)
      s.gpu_busy_share_of_held = c.inference / held;
    s.metric_on_cpu_s = c.metric_on_cpu;
    if (campaign.trigger_job >= 0) {
      s.evaluates = EvaluatedCheckpoint{run.jobs().job(static_cast<JobId>(campaign.trigger_job)).name,
                                        campaign.checkpoint};
      if (done)
        feedback.push_back(c.end - campaign.submit_s);
    } else {
      s.trials_detail = std::move(c.detail);
    }
    evaluation.campaigns.push_back(std::move(s));
  }
  evaluation.feedback_latency_s = LatencyStats{summarise(std::move(feedback))};
  return evaluation;
}

} // namespace acmesim
