#include "sim/experiment/RunMetrics.hpp"

#include <stdexcept>

namespace acmesim {

namespace {

std::string dotted(std::string_view a, std::string_view b) { return std::string(a) + "." + std::string(b); }

// Mean and p95 of one distribution, unless it is empty.
template <typename Stats>
void add_distribution(std::vector<RunMetric>& out, const Stats& stats, const std::string& name)
{
  if (stats.count == 0)
    return;
  out.push_back({dotted(name, json_name<Stats>(&Stats::mean)), *stats.mean});
  out.push_back({dotted(name, json_name<Stats>(&Stats::p95)), *stats.p95});
}

} // namespace

std::vector<RunMetric> run_metrics(const RunSummary& s)
{
  std::vector<RunMetric> out;
  out.push_back({std::string(json_name<RunSummary>(&RunSummary::makespan_s)), s.makespan_s});
  const auto families = {&RunSummary::wait_s, &RunSummary::jct_s};
  for (const auto family : families)
    add_distribution(out, (s.*family).all, std::string(json_name<RunSummary>(family)));
  for (const auto family : families)
    for (const auto& [type, stats] : (s.*family).by_type)
      add_distribution(out, stats, dotted(json_name<RunSummary>(family), to_string(type)));
  const std::string utilisation(json_name<RunSummary>(&RunSummary::utilisation));
  out.push_back({dotted(utilisation, "gpu_busy"), s.utilisation.mean_gpu_busy});
  out.push_back({dotted(utilisation, "gpu_allocated"), s.utilisation.mean_gpu_allocated});
  const std::string lost(json_name<RunSummary>(&RunSummary::lost_gpu_hours));
  out.push_back({dotted(lost, STATE_HOURS_TOTAL), s.lost_gpu_hours.total});
  for (GpuState cause : LOST_GPU_STATES) {
    const auto hours = s.lost_gpu_hours.by_state.find(cause);
    if (hours == s.lost_gpu_hours.by_state.end() && !state_reported(cause, false))
      continue; // a run without the network model
    if (hours == s.lost_gpu_hours.by_state.end())
      throw std::runtime_error("summary.json has no '" + dotted(lost, to_string(cause)) + "'");
    out.push_back({dotted(lost, to_string(cause)), hours->second});
  }
  if (s.network) {
    const std::string network(json_name<RunSummary>(&RunSummary::network));
    const std::string slowdown = dotted(network, json_name<NetworkSummary>(&NetworkSummary::slowdown));
    add_distribution(out, s.network->slowdown.all, slowdown);
    for (const auto& [type, stats] : s.network->slowdown.by_type)
      add_distribution(out, stats, dotted(slowdown, to_string(type)));
    out.push_back({dotted(network, "nic_mean_utilisation"), s.network->nic_utilisation.mean});
  }
  const std::string energy(json_name<RunSummary>(&RunSummary::energy));
  for (const auto field : {&EnergySummary::it_kwh, &EnergySummary::facility_kwh, &EnergySummary::mean_it_kw})
    out.push_back({dotted(energy, json_name<EnergySummary>(field)), s.energy.*field});
  // Jobs larger than every pod: a capacity target that ignores them would favour a cluster too small to run them.
  out.push_back({dotted(json_name<RunSummary>(&RunSummary::jobs), json_name<JobCounts>(&JobCounts::rejected)),
                 static_cast<double>(s.jobs.rejected)});
  const std::string training(json_name<RunSummary>(&RunSummary::training));
  if (s.training.ettr.count > 0)
    out.push_back({dotted(training, "ettr_mean"), *s.training.ettr.mean});
  if (s.training.ettr_large.count > 0)
    out.push_back({dotted(training, std::string(json_name<TrainingSummary>(&TrainingSummary::ettr_large)) + "_mean"),
                   *s.training.ettr_large.mean});
  if (s.evaluation)
    add_distribution(out, s.evaluation->feedback_latency_s,
                     dotted(json_name<RunSummary>(&RunSummary::evaluation),
                            json_name<EvaluationSummary>(&EvaluationSummary::feedback_latency_s)));
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

} // namespace acmesim
