#include "sim/engine/Simulation.hpp"

#include "models/failure/FailureModel.hpp"
#include "models/failure/RecordedFailures.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/engine/PlatformTransfers.hpp"
#include "sim/policies/Registries.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace acmesim {

namespace {

// Keeps one kernel timer armed at the next event time of RunState. Storage flows end on their
// own (SimGrid decides when); after each, the timer is moved if the next event changed.
class TimerDriver {
public:
  TimerDriver(RunState& state, const RunOptions& options, std::size_t total_jobs)
      : state_(state), options_(options), total_jobs_(total_jobs)
  {
  }

  void arm()
  {
    const double t = state_.next_event_time();
    if (timer_ && t == armed_at_)
      return;
    if (timer_)
      timer_->remove();
    timer_ = nullptr;
    if (std::isinf(t))
      return;
    armed_at_ = t;
    timer_ = simgrid::kernel::timer::Timer::set(t, [this, t] { fire(t); });
  }

  void transfer_done(TransferId id)
  {
    state_.transfer_done(simgrid::s4u::Engine::get_clock(), id);
    arm();
  }

private:
  void fire(double t)
  {
    timer_ = nullptr;
    // The engine's clock is the timer date; we pass our own copy of it so that event times
    // compare exactly with the ones RunState computed.
    state_.process_instant(t);
    if (options_.progress && (++instants_ & 0xFFFF) == 0)
      options_.progress(t, state_.ended_jobs(), std::max(total_jobs_, state_.job_count()));
    arm();
  }

  RunState& state_;
  const RunOptions& options_;
  std::size_t total_jobs_;
  std::uint64_t instants_ = 0;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double armed_at_ = 0;
};

std::unique_ptr<FailureSource> make_failure_source(const Scenario& scenario, const Topology& topology)
{
  switch (scenario.failures.source) {
    case FailureSpec::Source::None:
      return nullptr;
    case FailureSpec::Source::Model:
      return std::make_unique<FailureModel>(scenario.failures, topology, scenario.seed);
    case FailureSpec::Source::Recorded:
      return std::make_unique<RecordedFailureSource>(scenario.recorded_failures);
  }
  return nullptr;
}

// Failures per second of a job of `nodes` nodes in `pod`, for Young's and Daly's intervals: from
// the model, or for a recorded list from its node-level failures per node and second.
std::function<double(int, int)> job_failure_rate(const Scenario& scenario, const Topology& topology)
{
  if (scenario.failures.source == FailureSpec::Source::Model)
    return [&scenario, &topology](int pod, int nodes) {
      return expected_job_failure_rate(scenario.failures, topology, pod, nodes);
    };
  if (scenario.failures.source != FailureSpec::Source::Recorded || scenario.recorded_failures.empty())
    return {};
  double node_failures = 0;
  for (const auto& e : scenario.recorded_failures)
    node_failures += e.component == Component::LeafSwitch || e.component == Component::Storage ? 0 : 1;
  const double span = std::max(1.0, scenario.recorded_failures.back().time_s);
  const double per_node_second = node_failures / (static_cast<double>(topology.node_count()) * span);
  return [per_node_second](int, int nodes) { return per_node_second * nodes; };
}

} // namespace

RunResult::RunResult() = default;
RunResult::~RunResult() = default;
RunResult::RunResult(RunResult&&) noexcept = default;

RunResult run_simulation(const Scenario& scenario, const Workload& workload, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  if (!options.engine_logs)
    xbt_log_control_set("root.thres:warning");
  simgrid::s4u::Engine engine("acmesim");

  RunResult result;
  result.topology = std::make_unique<Topology>(scenario.cluster);
  const Platform platform = build_platform(*result.topology);
  result.scheduler = make_scheduler(scenario.scheduler, *result.topology, scenario.seed);
  result.recovery = make_recovery_policy(scenario.recovery);
  result.failures = make_failure_source(scenario, *result.topology);

  TimerDriver* driver = nullptr;
  PlatformTransfers transfers(*result.topology, platform, [&driver](TransferId id) { driver->transfer_done(id); });
  RunSetup setup;
  setup.failures = result.failures.get();
  setup.failure_spec = &scenario.failures;
  setup.recovery = result.recovery.get();
  setup.checkpoint = &scenario.checkpoint;
  setup.transfers = &transfers;
  setup.evaluation = &scenario.evaluation;
  setup.job_failure_rate = job_failure_rate(scenario, *result.topology);
  setup.utilisation_bin_s = scenario.output.utilisation_bin_s;
  setup.timeline = scenario.output.timeline;
  result.state = std::make_unique<RunState>(*result.topology, workload, *result.scheduler, setup);

  TimerDriver timer_driver(*result.state, options, workload.jobs.size());
  driver = &timer_driver;
  timer_driver.arm();
  engine.run();

  if (!result.state->finished())
    throw std::logic_error("the engine stopped with events still pending");
  if (!result.state->all_jobs_done())
    throw std::logic_error("the run ended with jobs that never finished");
  result.makespan_s = result.state->ledger().now();
  if (options.progress)
    options.progress(result.makespan_s, result.state->ended_jobs(), result.state->job_count());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace acmesim
