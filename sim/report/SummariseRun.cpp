// Builds the RunSummary of a finished run from its records (Reports.hpp: summarise_run).
#include "acmesim/Version.hpp"
#include "sim/report/EnergySummary.hpp"
#include "sim/report/Reports.hpp"
#include "sim/report/SummaryParts.hpp"

namespace acmesim {

namespace {

double free_while_queued(const Run& run)
{
  const double queued_gpu_s = run.engine().queued_s * run.topology().total_gpus();
  return queued_gpu_s > 0 ? run.engine().free_gpu_s_while_queued / queued_gpu_s : 0.0;
}

} // namespace

RunSummary summarise_run(const Scenario& scenario, const Workload& workload, const RunResult& result)
{
  const Run& run = *result.run;
  const Ledger& ledger = run.ledger();
  const double total = ledger.total_gpu_seconds();
  const auto share = [&](double s) { return total > 0 ? s / total : 0.0; };
  RunSummary summary;
  summary.program = ProgramInfo{"acmesim", VERSION};
  summary.scenario_name = scenario.name;
  summary.seed = scenario.seed;
  summary.makespan_s = result.makespan_s;
  summary.jobs = summarise_jobs(run, workload);
  summary.wait_s = summarise_times(run, true);
  summary.jct_s = summarise_times(run, false);
  const bool network = scenario.network.on();
  summary.gpu_hours = summarise_hours(ledger, enum_values<GpuState>(), network);
  summary.lost_gpu_hours = summarise_hours(ledger, LOST_GPU_STATES, network);
  summary.unavailable_gpu_hours = summarise_hours(ledger, UNAVAILABLE_GPU_STATES, network);
  summary.failures = summarise_failures(run);
  summary.preemption = summarise_preemptions(run);
  summary.training = summarise_training(run);
  summary.evaluation = summarise_evaluation(scenario, run);
  summary.utilisation = Utilisation{share(ledger.gpu_seconds(GpuState::Busy)),
                                    share(ledger.gpu_seconds(GpuState::Busy) + ledger.gpu_seconds(GpuState::Stranded)),
                                    result.makespan_s > 0 ? run.engine().queued_s / result.makespan_s : 0.0,
                                    free_while_queued(run),
                                    summarise_cpus(run, result.makespan_s)};
  summary.binding = what_binds(summary, run, scenario.cluster.processors);
  if (scenario.cluster.processors == ProcessorKind::Gpu)
    summary.energy = summarise_energy(ledger, scenario.power, servers_of(*result.topology), network);
  if (auto network_part = summarise_network(result))
    summary.network = std::move(*network_part);
  const EngineCounters& engine = run.engine();
  summary.engine = EngineSummary{engine.scheduler_calls, engine.instants, engine.max_queue_length};
  summary.scenario = scenario_to_json(scenario);
  return summary;
}

} // namespace acmesim
