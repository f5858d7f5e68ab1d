// The run loop's bookkeeping without the engine: what the scheduler is told, and in which
// order, when several things happen at one instant.
#include "sim/policies/FifoScheduler.hpp"
#include "sim/policies/Placements.hpp"
#include "sim/run/Run.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

namespace {

// Records every call's events, then lets fifo decide.
class RecordingScheduler final : public Scheduler {
public:
  explicit RecordingScheduler(const Topology& t) : fifo_(t, std::make_unique<PackPlacement>()) {}
  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override
  {
    calls.push_back({view.now(), events});
    return fifo_.decide(view, events);
  }
  std::vector<std::pair<double, std::vector<SchedulerEvent>>> calls;

private:
  FifoScheduler fifo_;
};

void run_to_end(Run& state)
{
  while (!state.finished())
    state.process_instant(state.next_event_time());
}

} // namespace

TEST_CASE("at one instant the scheduler is called once: finishes first, then submissions, each by job id")
{
  const Topology topo(tiny_cluster(2, 2));
  Workload w;
  // j1 and j0 end at 100; j3 and j2 are submitted at 100 (listed out of id order on purpose).
  w.jobs = {make_job(0, 0, 8, 100), make_job(1, 0, 8, 100), make_job(3, 100, 8, 10), make_job(2, 100, 8, 10)};
  normalise_workload(w); // ids follow submission order: the two jobs at 100 keep their listed order
  RecordingScheduler scheduler(topo);
  Run state(topo, w, scheduler);
  run_to_end(state);

  REQUIRE(scheduler.calls.size() == 3); // t = 0, 100, 110
  const auto& [t, events] = scheduler.calls[1];
  CHECK(t == 100);
  REQUIRE(events.size() == 4);
  CHECK(events[0].kind == EventKind::JobFinished);
  CHECK(events[0].job == 0);
  CHECK(events[1].kind == EventKind::JobFinished);
  CHECK(events[1].job == 1);
  CHECK(events[2].kind == EventKind::JobSubmitted);
  CHECK(events[2].job == 2);
  CHECK(events[3].kind == EventKind::JobSubmitted);
  CHECK(events[3].job == 3);
  // Both new jobs start at once on the GPUs freed in the same instant.
  CHECK(state.jobs().record(2).start_s == 100);
  CHECK(state.jobs().record(3).start_s == 100);
}

TEST_CASE("the run refuses an allocation that does not match the job")
{
  const Topology topo(tiny_cluster(2, 2));
  struct Broken final : Scheduler {
    Decisions decide(const ClusterView&, const std::vector<SchedulerEvent>& events) override
    {
      Decisions d;
      Allocation a;
      a.parts = {{0, 4}, {1, 4}}; // an 8-GPU job must sit on one node
      StartDecision start;
      start.job = events.at(0).job;
      start.allocation = a;
      d.starts.push_back(start);
      return d;
    }
  } broken;
  Workload w;
  w.jobs = {make_job(0, 0, 8, 10)};
  Run state(topo, w, broken);
  CHECK_THROWS_WITH(state.process_instant(0), Catch::Contains("allocation of 2 nodes instead of 1"));
}

TEST_CASE("the view reports running GPU jobs from their records")
{
  const Topology topo(tiny_cluster(2, 2));
  Workload w;
  w.jobs = {make_job(0, 0, 12, 100), make_job(1, 0, 0, 50)};
  RecordingScheduler scheduler(topo);
  Run state(topo, w, scheduler);
  state.process_instant(0);
  const RunningJob r = state.view().running(0);
  CHECK(r.start_s == 0);
  CHECK(r.allocation.node_count() == 2);
  CHECK_THROWS_AS(state.view().running(1), std::logic_error); // CPU-only: not the GPU scheduler's
  state.process_instant(state.next_event_time());       // t = 50
  state.process_instant(state.next_event_time());       // t = 100: j0 ends
  CHECK_THROWS_AS(state.view().running(0), std::logic_error);
}

TEST_CASE("the view lists every running GPU job with its end under the run's estimate model")
{
  const Topology topo(tiny_cluster(2, 2));
  Workload w;
  w.jobs = {make_job(0, 0, 8, 100), make_job(1, 0, 4, 40), make_job(2, 0, 0, 50), make_job(3, 0, 8, 10)};
  RecordingScheduler scheduler(topo);
  RunSetup setup;
  setup.estimates = RuntimeEstimates{EstimateModel::Factor, 1.5};
  Run state(topo, w, scheduler, setup);
  state.process_instant(0); // j0 and j1 start; j3 waits for j1's node; j2 holds no GPUs
  const RunView view = state.view();
  CHECK(view.estimates().model == EstimateModel::Factor);
  CHECK(view.estimate_s(3) == 15);
  const std::vector<RunningJob> running = view.running_jobs();
  REQUIRE(running.size() == 2);
  CHECK(running[0].job == 0);
  CHECK(running[0].estimated_end_s == 150);
  CHECK(running[1].job == 1);
  CHECK(running[1].estimated_end_s == 60);
  CHECK(view.running(1).estimated_end_s == 60);
  state.process_instant(state.next_event_time()); // t = 40: j1 ends, j3 starts
  const std::vector<RunningJob> later = state.view().running_jobs();
  REQUIRE(later.size() == 2);
  CHECK(later[1].job == 3);
  CHECK(later[1].start_s == 40);
  CHECK(later[1].estimated_end_s == 55);
}
