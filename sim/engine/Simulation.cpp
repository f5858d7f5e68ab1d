#include "sim/engine/Simulation.hpp"

#include "sim/engine/PlatformBuilder.hpp"
#include "sim/policies/PolicyFactory.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace acmesim {

namespace {

// Re-arms one kernel timer at the next event time until nothing is left to happen.
class TimerDriver {
public:
  TimerDriver(RunState& state, const RunOptions& options, std::size_t total_jobs)
      : state_(state), options_(options), total_jobs_(total_jobs)
  {
  }

  void arm()
  {
    const double t = state_.next_event_time();
    if (std::isinf(t))
      return;
    simgrid::kernel::timer::Timer::set(t, [this, t] { fire(t); });
  }

private:
  void fire(double t)
  {
    // The engine's clock is the timer date; we pass our own copy of it so that event times
    // compare exactly with the ones RunState computed.
    state_.process_instant(t);
    if (options_.progress && (++instants_ & 0xFFFF) == 0)
      options_.progress(t, state_.ended_jobs(), total_jobs_);
    arm();
  }

  RunState& state_;
  const RunOptions& options_;
  std::size_t total_jobs_;
  std::uint64_t instants_ = 0;
};

} // namespace

RunResult run_simulation(const Scenario& scenario, const Workload& workload, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  if (!options.engine_logs)
    xbt_log_control_set("root.thres:warning");
  simgrid::s4u::Engine engine("acmesim");

  RunResult result;
  result.topology = std::make_unique<Topology>(scenario.cluster);
  build_platform(*result.topology);
  result.scheduler = make_scheduler(scenario.scheduler, *result.topology, scenario.seed);
  result.state = std::make_unique<RunState>(*result.topology, workload, *result.scheduler);

  TimerDriver driver(*result.state, options, workload.jobs.size());
  driver.arm();
  engine.run();

  if (!result.state->finished())
    throw std::logic_error("the engine stopped with events still pending");
  result.makespan_s = result.state->ledger().now();
  if (options.progress)
    options.progress(result.makespan_s, result.state->ended_jobs(), workload.jobs.size());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace acmesim
