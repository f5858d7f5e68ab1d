// The run's components on their own: timer order, the scheduler's delivery order, the GPU holders'
// published changes and the ledger kept from them.
#include "sim/run/GpuHolders.hpp"
#include "sim/run/LedgerRecorder.hpp"
#include "sim/run/RunStatistics.hpp"
#include "sim/run/SchedulerInbox.hpp"
#include "sim/run/TimerQueue.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

TEST_CASE("timers at one time go by key, then in the order they were set")
{
  TimerHeap<int> heap;
  heap.push(10, 2, 1);
  heap.push(5, 9, 2);
  heap.push(10, 1, 3);
  heap.push(10, 2, 4);
  CHECK(heap.next_time() == 5);
  CHECK_FALSE(heap.pop_due(4).has_value());
  std::vector<int> order;
  while (const auto p = heap.pop_due(10))
    order.push_back(*p);
  CHECK(order == std::vector<int>{2, 3, 1, 4});
  CHECK(std::isinf(heap.next_time()));
}

TEST_CASE("a job has one live timer: setting another or disarming voids the old one")
{
  JobTimers timers;
  timers.arm(3, 100);
  timers.arm(1, 50);
  timers.arm(3, 20); // replaces the timer at 100
  timers.arm(7, 30);
  timers.disarm(7);
  CHECK(timers.next_time() == 20);
  CHECK(timers.pop_due(60) == std::optional<JobId>(3));
  CHECK(timers.pop_due(60) == std::optional<JobId>(1));
  CHECK_FALSE(timers.pop_due(1000).has_value()); // 3's timer at 100 and 7's were voided
  CHECK(std::isinf(timers.next_time()));
}

TEST_CASE("the scheduler is told of events by kind, then by job or node id, all dated now")
{
  SchedulerInbox inbox;
  inbox.post_job(EventKind::JobSubmitted, 4);
  inbox.post_node(EventKind::NodeUp, 2);
  inbox.post_job(EventKind::JobFinished, 9);
  inbox.post_job(EventKind::JobSubmitted, 1);
  inbox.post_node(EventKind::NodeDown, 7);
  inbox.post_job(EventKind::JobFinished, 3);
  const auto events = inbox.take(42);
  REQUIRE(events.size() == 6);
  CHECK(inbox.empty());
  const std::vector<std::pair<EventKind, std::uint32_t>> expected{
      {EventKind::JobFinished, 3}, {EventKind::JobFinished, 9}, {EventKind::NodeDown, 7},
      {EventKind::NodeUp, 2},      {EventKind::JobSubmitted, 1}, {EventKind::JobSubmitted, 4}};
  for (std::size_t i = 0; i < events.size(); ++i) {
    INFO(i);
    CHECK(events[i].kind == expected[i].first);
    const bool node = events[i].kind == EventKind::NodeDown || events[i].kind == EventKind::NodeUp;
    CHECK((node ? events[i].node : events[i].job) == expected[i].second);
    CHECK(events[i].time == 42);
  }
}

namespace {

// Two 8-GPU nodes; a 6-GPU job and a 16-GPU job, held through GpuHolders with a ledger listening.
struct HoldersFixture {
  Topology topology{tiny_cluster(2, 2)};
  Workload workload;
  Clock clock;
  RunEvents events;
  LedgerRecorder recorder{16, 0};
  RunStatistics statistics;
  HoldersFixture()
  {
    workload.jobs = {make_job(0, 0, 6, 100), make_job(1, 0, 16, 100)};
    events.subscribe(recorder);
    events.subscribe(statistics);
  }
  const Ledger& ledger() const { return recorder.ledger(); }
};

Allocation on_node(NodeId node, int gpus) { return Allocation{{{node, gpus}}}; }

} // namespace

TEST_CASE("the ledger follows what holders take, do and give back, stranded GPUs included")
{
  HoldersFixture f;
  JobTable jobs(f.workload);
  GpuHolders holders(f.topology, jobs, f.clock, f.events);

  holders.take(0, on_node(0, 8)); // 6 asked, a whole node held
  CHECK(holders.phase(0) == JobPhase::Starting);
  CHECK(f.ledger().gpus_in(GpuState::Restart) == 8);
  holders.enter(0, JobPhase::Training, 0);
  CHECK(f.ledger().gpus_in(GpuState::Busy) == 6);
  CHECK(f.ledger().gpus_in(GpuState::Stranded) == 2);
  CHECK(holders.cluster().free_gpus(0) == 0);

  f.clock.advance_to(10);
  f.events.publish(ClockAdvanced{10});
  holders.enter(0, JobPhase::Writing, 0);
  CHECK(f.ledger().gpus_in(GpuState::Checkpoint) == 8);
  CHECK(f.ledger().gpu_seconds(GpuState::Busy) == 60);
  CHECK(f.ledger().gpu_seconds(GpuState::Stranded) == 20);

  f.clock.advance_to(15);
  f.events.publish(ClockAdvanced{15});
  holders.release(0, JobPhase::Ended, 0);
  CHECK(f.ledger().gpus_in(GpuState::Idle) == 16);
  CHECK(holders.cluster().free_gpus(0) == 8);
  CHECK(holders.allocation(0).node_count() == 1); // kept for the report
  CHECK_FALSE(holders.holds(0));
  const JobFaultStats* stats = f.statistics.fault_stats(0);
  REQUIRE(stats != nullptr);
  CHECK(stats->checkpoint_s == 5); // Writing from 10 to 15
  CHECK(f.ledger().total_gpu_seconds() == 16 * 15);
}

TEST_CASE("a node leaving service takes its GPUs from the job; a requeued job forgets its allocation")
{
  HoldersFixture f;
  JobTable jobs(f.workload);
  GpuHolders holders(f.topology, jobs, f.clock, f.events);
  holders.take(1, Allocation{{{0, 8}, {1, 8}}});
  holders.enter(1, JobPhase::Detecting, 1);
  CHECK(holders.holders_on(1) == std::vector<JobId>{1});

  holders.lose_node(1, 1);
  holders.set_in_service(1, false);
  CHECK(holders.allocation(1).node_count() == 1);
  CHECK(holders.holders_on(1).empty());
  CHECK(holders.cluster().free_gpus(1) == 0); // out of service: not free
  CHECK(f.ledger().gpus_in(GpuState::Detection) == 8);
  CHECK(f.ledger().gpus_in(GpuState::Idle) == 8); // until the node's health moves them

  holders.release(1, JobPhase::Queued, 1);
  CHECK(holders.allocation(1).empty());
  CHECK(holders.phase(1) == JobPhase::Queued);
  CHECK(f.ledger().gpus_in(GpuState::Idle) == 16);
  CHECK(holders.cluster().free_gpus(0) == 8);
}

TEST_CASE("node health moves a node's unheld GPUs; lost work moves busy GPU-seconds")
{
  LedgerRecorder recorder(16, 0);
  recorder.on(NodeHealthChanged{0, 1, NodeHealth::InService, NodeHealth::Spare, 8, nullptr});
  CHECK(recorder.ledger().gpus_in(GpuState::Spare) == 8);
  recorder.on(NodeHealthChanged{0, 1, NodeHealth::Spare, NodeHealth::Down, 8, nullptr});
  CHECK(recorder.ledger().gpus_in(GpuState::Down) == 8);
  recorder.on(GpusTaken{0, 0, {}, Holding{GpuState::Busy, 8, 0}, Holding{GpuState::Busy, 8, 8}});
  recorder.on(ClockAdvanced{100});
  recorder.on(WorkLost{100, 0, 30, 8, 70, 100, LossCause::Failure});
  CHECK(recorder.ledger().gpu_seconds(GpuState::LostWork) == 240);
  CHECK(recorder.ledger().gpu_seconds(GpuState::Busy) == 800 - 240);
}
