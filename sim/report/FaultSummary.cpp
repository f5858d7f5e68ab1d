// The failure, preemption, checkpoint and recovery results of summary.json: failure and preemption
// counts, and per training job where its time went and its effective training time ratio.
#include "sim/report/SummaryParts.hpp"

#include <algorithm>

namespace acmesim {

JobTimeSplit time_split(const Job& job, const JobRecord& record, const JobFaultStats* stats, const TrialTimes* trial)
{
  JobTimeSplit split;
  if (record.outcome != JobOutcome::Ended || job.cpu_only())
    return split;
  split.ran = true;
  split.useful_s = trial ? trial->inference_s : (stats && stats->gave_up ? stats->useful_s : job.duration_s);
  const double wall = record.end_s - record.start_s;
  split.ettr = wall > 0 ? split.useful_s / wall : 1.0;
  return split;
}

FailureSummary summarise_failures(const Run& run)
{
  const auto& applied = run.statistics().applied_failures();
  FailureSummary f;
  static_cast<FailureCounts&>(f) = run.statistics().failure_counts();
  f.applied = applied.size();
  for (FailureCategory category : enum_values<FailureCategory>())
    f.by_category[category] = 0;
  for (Component component : enum_values<Component>())
    f.by_component[component] = 0;
  for (const auto& e : applied) {
    f.by_category[e.category]++;
    f.by_component[e.component]++;
  }
  return f;
}

PreemptionSummary summarise_preemptions(const Run& run)
{
  PreemptionSummary p;
  for (JobType type : enum_values<JobType>())
    p.by_type[type] = {};
  const JobTable& jobs = run.jobs();
  for (JobId id = 0; id < jobs.count(); ++id) {
    const JobFaultStats* stats = run.statistics().fault_stats(id);
    if (!stats || stats->preemptions == 0)
      continue;
    const Job& job = jobs.job(id);
    const double gpu_hours = stats->preempted_s * job.gpus / 3600.0;
    for (PreemptionCount* count : {static_cast<PreemptionCount*>(&p), &p.by_type[job.type]}) {
      count->preemptions += static_cast<std::size_t>(stats->preemptions);
      ++count->jobs_preempted;
      count->lost_gpu_hours += gpu_hours;
    }
  }
  return p;
}

namespace {

TrainingJob training_job(const Job& job, const JobRecord& record, const JobTimeSplit& split, const JobFaultStats& s)
{
  TrainingJob t{s, job.name, job.gpus, record.end_s - record.start_s, split.ettr};
  t.useful_s = split.useful_s;
  return t;
}

} // namespace

TrainingSummary summarise_training(const Run& run)
{
  const JobTable& jobs = run.jobs();
  TrainingSummary training;
  std::vector<double> ettrs, large;
  for (JobId id = 0; id < jobs.count(); ++id) {
    const Job& job = jobs.job(id);
    if (job.type != JobType::Pretrain || job.cpu_only())
      continue;
    const JobRecord& record = jobs.record(id);
    const JobFaultStats* stats = run.statistics().fault_stats(id);
    const JobTimeSplit split = time_split(job, record, stats);
    if (!split.ran)
      continue;
    const JobFaultStats& s = stats ? *stats : JobFaultStats{};
    ettrs.push_back(split.ettr);
    if (job.gpus >= LARGE_JOB_GPUS)
      large.push_back(split.ettr);
    training.interruptions += static_cast<std::size_t>(s.interruptions);
    training.jobs.push_back(training_job(job, record, split, s));
  }
  training.ettr = EttrStats{summarise(std::move(ettrs))};
  training.ettr_large = EttrStats{summarise(std::move(large))};
  return training;
}

} // namespace acmesim
