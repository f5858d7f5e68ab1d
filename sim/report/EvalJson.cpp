// The evaluation part of summary.json: per campaign its makespan, where the GPU time of its
// trials went (loading, CPU waits, inference) and every trial's phase times.
#include "sim/report/EvalReports.hpp"

#include <algorithm>
#include <filesystem>

namespace acmesim {

Json eval_config_json(const Scenario& scenario)
{
  const EvalSpec& e = scenario.evaluation;
  if (!e.enabled)
    return Json{{"enabled", false}};
  Json datasets = Json::array();
  for (const auto& name : e.datasets)
    datasets.push_back(name);
  return Json{{"catalogue", e.catalogue.source == "<embedded default>"
                                ? e.catalogue.source
                                : std::filesystem::path(e.catalogue.source).filename().string()},
              {"datasets", datasets},
              {"model_params_b", e.model_params_b},
              {"gpus_per_trial", e.gpus_per_trial},
              {"weight_bytes_per_param", e.weight_bytes_per_param},
              {"pcie_GBps", e.pcie_GBps},
              {"chunk_s", e.chunk_s},
              {"campaigns_s", e.campaigns_s}};
}

Json evaluation_summary(const Scenario& scenario, const Workload& workload, const RunState& state)
{
  if (workload.eval_campaigns_s.empty())
    return nullptr;
  const auto& catalogue = scenario.evaluation.catalogue;
  std::vector<Json> campaigns(workload.eval_campaigns_s.size());
  struct Totals {
    double end = 0, load = 0, cpu_wait = 0, inference = 0, metric_on_cpu = 0;
    std::size_t trials = 0;
  };
  std::vector<Totals> totals(workload.eval_campaigns_s.size());
  std::vector<Json> trials(workload.eval_campaigns_s.size(), Json::array());
  for (const Job& job : workload.jobs) {
    if (!job.eval_trial())
      continue;
    const EvalChunk& chunk = workload.eval_chunks[static_cast<std::size_t>(job.eval_chunk)];
    const JobRecord& record = state.records()[job.id];
    const TrialTimes* t = state.trial_times(job.id);
    if (record.outcome != JobOutcome::Ended || !t)
      continue;
    Totals& c = totals[chunk.campaign];
    ++c.trials;
    c.end = std::max(c.end, record.end_s);
    const double gpus = job.gpus;
    c.load += t->load_s * gpus;
    const bool metric_held = record.end_s <= t->gpu_release_s;
    c.cpu_wait += (t->preprocess_s + (metric_held ? t->metric_s : 0)) * gpus;
    c.inference += t->inference_s * gpus;
    c.metric_on_cpu += metric_held ? 0 : t->metric_s;
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
  Json out = Json::array();
  for (std::size_t i = 0; i < totals.size(); ++i) {
    const Totals& c = totals[i];
    const double submit = workload.eval_campaigns_s[i];
    const double held = c.load + c.cpu_wait + c.inference;
    out.push_back(Json{{"campaign", i},
                       {"submit_s", submit},
                       {"trials", c.trials},
                       {"makespan_s", c.trials > 0 ? Json(c.end - submit) : Json(nullptr)},
                       {"trial_gpu_hours", Json{{"model_load", c.load / 3600},
                                                {"cpu_wait", c.cpu_wait / 3600},
                                                {"inference", c.inference / 3600},
                                                {"total_held", held / 3600}}},
                       {"gpu_busy_share_of_held", held > 0 ? Json(c.inference / held) : Json(nullptr)},
                       {"metric_on_cpu_s", c.metric_on_cpu},
                       {"trials_detail", trials[i]}});
  }
  return out;
}

} // namespace acmesim
