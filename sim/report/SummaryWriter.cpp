#include "sim/report/Reports.hpp"

#include "acmesim/Version.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/EvalReports.hpp"
#include "sim/report/FaultReports.hpp"
#include "models/failure/RecordedFailures.hpp"
#include "sim/report/Statistics.hpp"

#include <map>

namespace acmesim {

namespace {

// An empty sample has no mean or quantiles: null, not a misleading 0.
Json to_json(const SampleSummary& s)
{
  if (s.count == 0)
    return Json{{"count", 0}, {"mean", nullptr}, {"p50", nullptr}, {"p95", nullptr}, {"p99", nullptr}, {"max", nullptr}};
  return Json{{"count", s.count}, {"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99}, {"max", s.max}};
}

// Wait and JCT of GPU jobs that ran, overall and per job type (types with jobs only).
Json time_summaries(const Run& run, bool wait)
{
  std::vector<double> all;
  std::map<JobType, std::vector<double>> by_type;
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    const JobRecord& r = run.jobs().record(id);
    if (job.cpu_only() || r.outcome != JobOutcome::Ended)
      continue;
    const double v = wait ? r.start_s - job.submit_s : r.end_s - job.submit_s;
    all.push_back(v);
    by_type[job.type].push_back(v);
  }
  Json types = Json::object();
  for (JobType type : enum_values<JobType>())
    if (auto it = by_type.find(type); it != by_type.end())
      types[std::string(to_string(type))] = to_json(summarise(std::move(it->second)));
  return Json{{"all", to_json(summarise(std::move(all)))}, {"by_type", types}};
}

Json job_counts(const Workload& workload, const RunResult& result)
{
  std::map<std::string, std::size_t> by_state;
  for (JobState s : enum_values<JobState>())
    by_state[std::string(to_string(s))] = 0;
  std::map<JobType, std::size_t> by_type;
  std::size_t gpu_jobs = 0;
  const JobTable& jobs = result.run->jobs();
  for (JobId id = 0; id < jobs.count(); ++id) {
    const Job& job = jobs.job(id);
    const JobRecord& r = jobs.record(id);
    if (r.outcome == JobOutcome::Ended)
      by_state[std::string(to_string(job.final_state))]++;
    by_type[job.type]++;
    gpu_jobs += job.cpu_only() ? 0 : 1;
  }
  Json states = Json::object();
  for (JobState s : enum_values<JobState>())
    states[std::string(to_string(s))] = by_state[std::string(to_string(s))];
  Json types = Json::object();
  for (JobType t : enum_values<JobType>())
    types[std::string(to_string(t))] = by_type[t];
  return Json{{"total", jobs.count()},
              {"gpu", gpu_jobs},
              {"cpu_only", result.run->cpu_only_jobs()},
              {"rejected", jobs.rejected_count()},
              {"skipped_rows", workload.skipped_rows},
              {"by_final_state", states},
              {"by_type", types}};
}

Json gpu_hours(const Ledger& ledger)
{
  Json hours = Json::object();
  for (GpuState s : enum_values<GpuState>())
    hours[std::string(to_string(s))] = ledger.gpu_seconds(s) / 3600.0;
  hours["total"] = ledger.total_gpu_seconds() / 3600.0;
  return hours;
}

} // namespace

Json make_summary(const Scenario& scenario, const Workload& workload, const RunResult& result)
{
  const Ledger& ledger = result.run->ledger();
  const double total = ledger.total_gpu_seconds();
  const auto share = [&](double s) { return total > 0 ? s / total : 0.0; };
  const EngineCounters& c = result.run->engine();
  Json summary;
  summary["program"] = Json{{"name", "acmesim"}, {"version", VERSION}};
  summary["scenario_name"] = scenario.name;
  summary["seed"] = scenario.seed;
  summary["makespan_s"] = result.makespan_s;
  summary["jobs"] = job_counts(workload, result);
  summary["wait_s"] = time_summaries(*result.run, true);
  summary["jct_s"] = time_summaries(*result.run, false);
  summary["gpu_hours"] = gpu_hours(ledger);
  summary["lost_gpu_hours"] = lost_gpu_hours(ledger);
  summary["failures"] = failure_counts(*result.run);
  summary["training"] = training_jobs(*result.run);
  summary["evaluation"] = evaluation_summary(scenario, *result.run);
  summary["utilisation"] = Json{
      {"mean_gpu_busy", share(ledger.gpu_seconds(GpuState::Busy))},
      {"mean_gpu_allocated", share(ledger.gpu_seconds(GpuState::Busy) + ledger.gpu_seconds(GpuState::Stranded))}};
  summary["engine"] = Json{
      {"scheduler_calls", c.scheduler_calls}, {"instants", c.instants}, {"max_queue_length", c.max_queue_length}};
  summary["scenario"] = scenario_to_json(scenario);
  return summary;
}

void write_results(const std::filesystem::path& dir, const Scenario& scenario, const Workload& workload,
                   const RunResult& result)
{
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / "summary.json");
  {
    AtomicFile jobs(dir / "jobs.csv");
    write_jobs_csv(jobs.stream(), result);
    jobs.commit();
  }
  // The failures that took effect, in the recorded-list format: `failures: {recorded: ...}`
  // replays them exactly, under this or another policy.
  std::filesystem::remove(dir / "failures.csv");
  if (scenario.failures.source != FailureSpec::Source::None) {
    AtomicFile failures(dir / "failures.csv");
    write_failure_list(failures.stream(), result.run->statistics().applied_failures(), *result.topology);
    failures.commit();
  }
  {
    AtomicFile utilisation(dir / "utilisation.csv");
    write_utilisation_csv(utilisation.stream(), result.run->ledger());
    utilisation.commit();
  }
  // A timeline of an earlier run must not pass for this run's.
  std::filesystem::remove(dir / "timeline.json");
  if (scenario.output.timeline) {
    AtomicFile timeline(dir / "timeline.json");
    write_timeline_json(timeline.stream(), scenario, result);
    timeline.commit();
  }
  AtomicFile summary(dir / "summary.json");
  // Paths in the scenario may not be UTF-8: replace such bytes rather than fail after the run.
  summary.stream() << make_summary(scenario, workload, result).dump(2, ' ', false, Json::error_handler_t::replace)
                   << '\n';
  summary.commit();
}

} // namespace acmesim
