#include "sim/engine/Simulation.hpp"

#include "models/cluster/StartOverheads.hpp"
#include "models/common/Interrupts.hpp"
#include "models/common/Random.hpp"
#include "models/failure/FailureModel.hpp"
#include "models/failure/FailureRates.hpp"
#include "models/failure/RecordedFailures.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/engine/FlowModel.hpp"
#include "sim/engine/LinkLoads.hpp"
#include "sim/engine/PlatformBuilder.hpp"
#include "sim/engine/PlatformRings.hpp"
#include "sim/engine/PlatformTransfers.hpp"
#include "sim/policies/Registries.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

namespace acmesim {

namespace {

// Reports progress every 65,536 instants: often enough for the terminal, rarely enough to cost
// nothing. Stops the run (Interrupted) at the first instant after a SIGINT or SIGTERM.
class InstantProgress {
public:
  InstantProgress(const Run& run, const RunOptions& options, std::size_t total_jobs)
      : run_(run), options_(options), total_jobs_(total_jobs)
  {
  }
  void instant_done(double t)
  {
    if (interrupt_signal() != 0) [[unlikely]]
      stop_if_interrupted(fmt::format("at simulated time {:.0f} s", t));
    if (options_.progress && (++instants_ & 0xFFFF) == 0)
      options_.progress(t, run_.jobs().ended_count(), std::max(total_jobs_, run_.jobs().count()));
  }

private:
  const Run& run_;
  const RunOptions& options_;
  std::size_t total_jobs_;
  std::uint64_t instants_ = 0;
};

// Keeps a run's time: the next instant is the run's next event time, or, when sharing on the fabric
// changed at t, just after t (the next double). SimGrid solves sharing at the start of a round, so
// the rates of the round after a change are those from the change on, and the run is told of them
// as of t. The same instants whether SimGrid's timer fires them (TimerDriver) or run_on_platform's
// own loop does (no storage flows: the rings' rates are ready at once, but are read at the same
// instant as on SimGrid), so either gives the same results.
class RunDriver {
public:
  RunDriver(Run& run, const RunOptions& options, std::size_t total_jobs, LinkLoads* loads)
      : run_(run), progress_(run, options, total_jobs), loads_(loads)
  {
  }

  // Sharing on the fabric changed at `now` (a flow started or ended, a ring opened or closed, a
  // component went off or on).
  void sharing_changed(double now)
  {
    if (!changed_since_)
      changed_since_ = now;
  }

  // The next instant to fire, at `now` or later; infinity when the run is over.
  double next_time(double now) const
  {
    double t = run_.next_event_time();
    if (changed_since_)
      t = std::min(t, std::nextafter(*changed_since_, std::numeric_limits<double>::infinity()));
    // After a speed change read just past its date, an end due within that last step of the clock
    // is due now.
    return std::max(t, now);
  }

  void fire(double t)
  {
    if (changed_since_ && t > *changed_since_) { // rates of this round are those since the change
      const double since = *changed_since_;
      changed_since_.reset();
      if (loads_)
        loads_->sample(since);
      run_.network_changed(since);
      if (run_.next_event_time() > t)
        return;
    }
    // The timer's date: our own copy of it, so that event times compare exactly with the ones the
    // Run computed.
    run_.process_instant(t);
    progress_.instant_done(t);
  }

  void transfer_done(double now, TransferId id) { run_.transfer_done(now, id); }

private:
  Run& run_;
  InstantProgress progress_;
  LinkLoads* loads_;                    // nullptr with the network model off
  std::optional<double> changed_since_; // sharing changed then and the run has not been told yet
};

// Keeps one kernel timer armed at the driver's next instant. Storage flows end on their own
// (SimGrid decides when); after each, the timer is moved if the next instant changed.
class TimerDriver {
public:
  explicit TimerDriver(RunDriver& driver) : driver_(driver) {}

  void sharing_changed()
  {
    driver_.sharing_changed(simgrid::s4u::Engine::get_clock());
    // A flow of a transfer ended while others go on: nothing else will move the timer.
    if (!handling_)
      arm();
  }

  void arm()
  {
    // SimGrid refuses a date in the past.
    const double t = driver_.next_time(simgrid::s4u::Engine::get_clock());
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
    handling_ = true;
    driver_.transfer_done(simgrid::s4u::Engine::get_clock(), id);
    handling_ = false;
    arm();
  }

private:
  void fire(double t)
  {
    timer_ = nullptr;
    handling_ = true;
    driver_.fire(t);
    handling_ = false;
    arm();
  }

  RunDriver& driver_;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double armed_at_ = 0;
  bool handling_ = false; // in a call to the run: the timer is armed after it
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

// Everything the run has besides the engine's services (transfers, rings).
RunSetup run_setup(const Scenario& scenario, const Workload& workload, const RunResult& result)
{
  RunSetup setup;
  setup.failures = result.failures.get();
  setup.failure_spec = &scenario.failures;
  setup.recovery = result.recovery.get();
  setup.checkpoint = &scenario.checkpoint;
  setup.estimates = scenario.workload.runtime_estimates();
  setup.decision_limit_s = scenario.scheduler.decision_limit_s;
  setup.scheduler_name = "'" + scenario.scheduler.name + "'";
  setup.evaluation = &scenario.evaluation;
  setup.network = &scenario.network;
  setup.start_overhead_s = draw_start_overheads(scenario.cluster, workload, scenario.seed);
  setup.job_failure_rate = job_failure_rate(scenario.failures, scenario.recorded_failures, *result.topology);
  setup.utilisation_bin_s = scenario.output.utilisation_bin_s;
  setup.utilisation_max_bins = static_cast<std::size_t>(physical::MAX_UTILISATION_BINS);
  setup.timeline = scenario.output.timeline;
  return setup;
}

// The run on the platform: storage flows and the rings of the network model share its links. When
// the run moves data to or from storage, SimGrid shares the storage flows and its timer keeps time;
// otherwise only the rings use the platform (their routes and links: PlatformRings), and the run
// keeps time itself, at the same instants.
void run_on_platform(const Scenario& scenario, const Workload& workload, const RunOptions& options, RunSetup setup,
                     bool on_simgrid, RunResult& result)
{
  if (!options.engine_logs)
    xbt_log_control_set("root.thres:warning");
  // SimGrid's engine takes SIGINT over (it would print its actors and exit 1): the process keeps
  // its own handling (catch_interrupts), which stops the run between instants.
  struct sigaction own_sigint {};
  sigaction(SIGINT, nullptr, &own_sigint);
  simgrid::s4u::Engine engine("acmesim");
  sigaction(SIGINT, &own_sigint, nullptr);
  const bool flows = scenario.network.on();
  if (flows)
    configure_flow_model();
  const Platform platform = build_platform(*result.topology, flows ? CableSharing::Duplex : CableSharing::Shared,
                                           derive_stream_seed(scenario.seed, "fabric.ecmp"));

  RunDriver* driver = nullptr;
  TimerDriver* timer = nullptr;
  double own_clock = 0; // the instant under way, when the run keeps time itself
  // With the network model off nothing listens to sharing changes: the run is as without it.
  const auto changed = [&] {
    if (!flows || !driver)
      return;
    if (timer)
      timer->sharing_changed();
    else
      driver->sharing_changed(own_clock);
  };
  PlatformTransfers transfers(
      *result.topology, platform,
      [&timer](TransferId id) {
        if (!timer)
          throw std::logic_error("a storage flow ended in a run that keeps time itself");
        timer->transfer_done(id);
      },
      changed);
  PlatformRings rings(platform, scenario.network.phases, scenario.network.collectives.network.efficiency, changed);
  std::optional<LinkLoads> loads;
  if (flows) {
    loads.emplace(platform, scenario.network.nic_sample_s, [&rings] { return rings.trains(); });
    // Storage flows load the links the rings' bursts cross.
    transfers.watch_flow_starts([&loads, &rings](const StartedFlow& flow) {
      loads->flow_started(flow);
      rings.other_flow_started(flow);
    });
  }
  setup.transfers = &transfers;
  setup.rings = &rings;
  result.run = std::make_unique<Run>(*result.topology, workload, *result.scheduler, std::move(setup));

  RunDriver run_driver(*result.run, options, workload.jobs.size(), loads ? &*loads : nullptr);
  driver = &run_driver;
  if (on_simgrid) {
    TimerDriver timer_driver(run_driver);
    timer = &timer_driver;
    timer_driver.arm();
    engine.run();
    timer = nullptr;
  } else {
    for (own_clock = run_driver.next_time(0); !std::isinf(own_clock); own_clock = run_driver.next_time(own_clock))
      run_driver.fire(own_clock);
  }

  if (rings.open_rings() > 0)
    throw std::logic_error("the run ended with rings still open");
  if (loads)
    result.network_load = loads->finish(result.run->now());
}

// A run that moves no data and has no network model asks nothing of the platform: it goes from
// one event time to the next itself. The same instants, in the same order, as on SimGrid, whose
// timer would fire at exactly these times; this saves SimGrid's work per step (its solver pass
// over every model, its scan for ended actions, the timer itself) and building the platform: a
// third of the replay of an 819,389-job trace (0.57 s to 0.37 s, benchmarks/README.md).
void run_without_platform(const Workload& workload, const RunOptions& options, RunSetup setup, RunResult& result)
{
  result.run = std::make_unique<Run>(*result.topology, workload, *result.scheduler, std::move(setup));
  Run& run = *result.run;
  InstantProgress progress(run, options, workload.jobs.size());
  for (double t = run.next_event_time(); !std::isinf(t); t = run.next_event_time()) {
    run.process_instant(t);
    progress.instant_done(t);
  }
}

} // namespace

RunResult run_simulation(const Scenario& scenario, const Workload& workload, const RunOptions& options)
{
  const auto wall_start = std::chrono::steady_clock::now();
  RunResult result;
  result.topology = std::make_unique<Topology>(scenario.cluster);
  result.scheduler = make_scheduler(scenario.scheduler, *result.topology, scenario.seed);
  result.recovery = make_recovery_policy(scenario.recovery);
  result.failures = make_failure_source(scenario, *result.topology);
  RunSetup setup = run_setup(scenario, workload, result);
  result.simgrid_kept_time = options.always_on_simgrid || moves_storage_data(workload, setup);
  if (result.simgrid_kept_time || scenario.network.on())
    run_on_platform(scenario, workload, options, std::move(setup), result.simgrid_kept_time, result);
  else
    run_without_platform(workload, options, std::move(setup), result);

  if (!result.run->finished())
    throw std::logic_error("the engine stopped with events still pending");
  // Jobs left queued with nothing else to happen are the scheduler's: it never started them. A job
  // left in any other state is ours.
  const JobTable& jobs = result.run->jobs();
  for (JobId id = 0; id < jobs.count(); ++id)
    if (const JobOutcome outcome = jobs.record(id).outcome; outcome == JobOutcome::Pending)
      result.stalled.push_back(id);
    else if (outcome == JobOutcome::Running)
      throw std::logic_error("the run ended with job " + jobs.job(id).name + " still running");
  result.makespan_s = result.run->now();
  if (options.progress)
    options.progress(result.makespan_s, result.run->jobs().ended_count(), result.run->jobs().count());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace acmesim
