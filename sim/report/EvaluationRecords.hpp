#pragma once
// The evaluation part of summary.json (RunSummary.hpp): per campaign its trials, their phases and
// GPU time, and the feedback latency of campaigns triggered by checkpoints. Each record declares
// its fields once, right after it (JsonFields.hpp).
#include "sim/report/JsonFields.hpp"
#include "sim/report/Statistics.hpp"
#include "sim/run/RunFigures.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace acmesim {

// One evaluation trial of a scheduled campaign: when it ran and its phases (wall seconds).
struct TrialDetail : TrialTimes {
  std::string trial;
  std::string dataset;
  int chunk = 0;
  double start_s = 0;
  double end_s = 0;
  bool metric_on_gpu = false;
};
constexpr auto json_fields(const TrialDetail*)
{
  using T = TrialDetail;
  return fields<T>("trial dataset chunk start_s gpus_released_s end_s load_s preprocess_s inference_s metric_s "
                   "metric_on_gpu",
                   &T::trial, &T::dataset, &T::chunk, &T::start_s, &T::gpu_release_s, &T::end_s, &T::load_s,
                   &T::preprocess_s, &T::inference_s, &T::metric_s, &T::metric_on_gpu);
}

struct TrialGpuHours {
  double model_load = 0, cpu_wait = 0, inference = 0, total_held = 0;
};
constexpr auto json_fields(const TrialGpuHours*)
{
  using T = TrialGpuHours;
  return fields<T>("model_load cpu_wait inference total_held", &T::model_load, &T::cpu_wait, &T::inference,
                   &T::total_held);
}

struct EvaluatedCheckpoint {
  std::string job_id;
  int checkpoint = 0;
};
constexpr auto json_fields(const EvaluatedCheckpoint*)
{
  return fields<EvaluatedCheckpoint>("job_id checkpoint", &EvaluatedCheckpoint::job_id,
                                     &EvaluatedCheckpoint::checkpoint);
}

struct CampaignSummary {
  std::size_t campaign = 0;
  double submit_s = 0;
  std::size_t trials = 0;
  std::optional<double> makespan_s; // null until every trial ended
  TrialGpuHours trial_gpu_hours;
  std::optional<double> gpu_busy_share_of_held;
  double metric_on_cpu_s = 0;
  Omittable<EvaluatedCheckpoint> evaluates;          // campaigns triggered by a checkpoint
  Omittable<std::vector<TrialDetail>> trials_detail; // scheduled campaigns
};
constexpr auto json_fields(const CampaignSummary*)
{
  using T = CampaignSummary;
  return fields<T>("campaign submit_s trials makespan_s trial_gpu_hours gpu_busy_share_of_held metric_on_cpu_s "
                   "evaluates trials_detail",
                   &T::campaign, &T::submit_s, &T::trials, &T::makespan_s, &T::trial_gpu_hours,
                   &T::gpu_busy_share_of_held, &T::metric_on_cpu_s, &T::evaluates, &T::trials_detail);
}

struct LatencyStats : SampleStats {};
constexpr auto json_fields(const LatencyStats*)
{
  return fields<LatencyStats>("count mean p95", &LatencyStats::count, &LatencyStats::mean, &LatencyStats::p95);
}

struct EvaluationSummary {
  std::vector<CampaignSummary> campaigns;
  LatencyStats feedback_latency_s; // checkpoint written to all of its trials done
};
constexpr auto json_fields(const EvaluationSummary*)
{
  using T = EvaluationSummary;
  return fields<T>("campaigns feedback_latency_s", &T::campaigns, &T::feedback_latency_s);
}

} // namespace acmesim
