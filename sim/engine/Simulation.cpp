#include "sim/engine/Simulation.hpp"

#include "models/failure/FailureModel.hpp"
#include "models/failure/FailureRates.hpp"
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

// Keeps one kernel timer armed at the next event time of the Run. Storage flows end on their
// own (SimGrid decides when); after each, the timer is moved if the next event changed.
class TimerDriver {
public:
  TimerDriver(Run& run, const RunOptions& options, std::size_t total_jobs)
      : run_(run), options_(options), total_jobs_(total_jobs)
  {
  }

  void arm()
  {
    const double t = run_.next_event_time();
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
    run_.transfer_done(simgrid::s4u::Engine::get_clock(), id);
    arm();
  }

private:
  void fire(double t)
  {
    timer_ = nullptr;
    // The engine's clock is the timer date; we pass our own copy of it so that event times
    // compare exactly with the ones the Run computed.
    run_.process_instant(t);
    if (options_.progress && (++instants_ & 0xFFFF) == 0)
      options_.progress(t, run_.jobs().ended_count(), std::max(total_jobs_, run_.jobs().count()));
    arm();
  }

  Run& run_;
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
  setup.job_failure_rate = job_failure_rate(scenario.failures, scenario.recorded_failures, *result.topology);
  setup.utilisation_bin_s = scenario.output.utilisation_bin_s;
  setup.timeline = scenario.output.timeline;
  result.run = std::make_unique<Run>(*result.topology, workload, *result.scheduler, setup);

  TimerDriver timer_driver(*result.run, options, workload.jobs.size());
  driver = &timer_driver;
  timer_driver.arm();
  engine.run();

  if (!result.run->finished())
    throw std::logic_error("the engine stopped with events still pending");
  if (!result.run->all_jobs_done())
    throw std::logic_error("the run ended with jobs that never finished");
  result.makespan_s = result.run->now();
  if (options.progress)
    options.progress(result.makespan_s, result.run->jobs().ended_count(), result.run->jobs().count());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace acmesim
