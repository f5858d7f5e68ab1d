// Whole runs through the SimGrid engine on clusters small enough to work out by hand.
// One TEST_CASE per process (SimGrid allows one engine per process): no SECTIONs here.
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// Two nodes of 8 GPUs on one leaf switch, and five jobs:
//   j0 t=0   8 GPUs 100 s     j1 t=10 16 GPUs 100 s     j2 t=20 4 GPUs 50 s
//   j3 t=30  8 GPUs 200 s     j4 t=40  2 GPUs  30 s
// fifo: j0 0-100 on node0. j1 needs both nodes and waits for j0: 100-200; j2, j3, j4 queue
//   behind it. At 200: j2 -> node0 (best fit among two free nodes: lowest id) 200-250,
//   j3 -> node1 (whole node) 200-400, j4 -> node0 (4 GPUs left there) 200-230.
// easy-backfill: j1 is reserved at t=100 (when j0 ends). j2 ends at 70 <= 100: backfilled on
//   node1 at 20. j3 cannot fit then. j4 ends at 70 <= 100: backfilled on node1 at 40. At 70
//   j3 fits on node1 but would run to 270 on a node j1 needs at 100: it waits. j1 100-200,
//   then j3 200-400 on node0.
// Both: makespan 400; busy GPU-s = 8x100 + 16x100 + 4x50 + 8x200 + 2x30 = 4260 of 16 x 400.
Workload five_jobs()
{
  return hand_built_workload({make_job(0, 0, 8, 100), make_job(1, 10, 16, 100), make_job(2, 20, 4, 50),
                              make_job(3, 30, 8, 200), make_job(4, 40, 2, 30)});
}

struct Expected {
  double start, end;
};

void check_run(const RunResult& r, const std::vector<Expected>& expected)
{
  const JobTable& jobs = r.run->jobs();
  REQUIRE(jobs.count() == expected.size());
  for (JobId i = 0; i < expected.size(); ++i) {
    INFO("job j" << i);
    CHECK(jobs.record(i).outcome == JobOutcome::Ended);
    CHECK(jobs.record(i).start_s == expected[i].start);
    CHECK(jobs.record(i).end_s == expected[i].end);
  }
  CHECK(r.makespan_s == 400);
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(4260));
  CHECK(ledger.gpu_seconds(GpuState::Stranded) == 0);
  CHECK(ledger.total_gpu_seconds() == Approx(16 * 400));
}

} // namespace

TEST_CASE("fifo on two nodes: exact start and end times worked out by hand")
{
  const Workload w = five_jobs();
  const RunResult r = run_simulation(hand_built_scenario(tiny_cluster(2, 2), "fifo"), w);
  check_run(r, {{0, 100}, {100, 200}, {200, 250}, {200, 400}, {200, 230}});
  CHECK(r.run->allocation(2).parts[0].node == 0);
  CHECK(r.run->allocation(3).parts[0].node == 1);
  CHECK(r.run->allocation(4).parts[0].node == 0);
}

TEST_CASE("easy-backfill on two nodes: exact times, and backfilling beats fifo on waiting")
{
  const Workload w = five_jobs();
  const RunResult r = run_simulation(hand_built_scenario(tiny_cluster(2, 2), "easy-backfill"), w);
  check_run(r, {{0, 100}, {100, 200}, {20, 70}, {200, 400}, {40, 70}});
  double total_wait = 0;
  for (const Job& j : w.jobs)
    total_wait += r.run->jobs().record(j.id).start_s - j.submit_s;
  // fifo waits: 0 + 90 + 180 + 170 + 160 = 600; easy-backfill: 0 + 90 + 0 + 170 + 0 = 260.
  CHECK(total_wait == 260);
}

TEST_CASE("at one instant, resources freed by a finishing job are seen before new submissions")
{
  // j0 holds both nodes until 100; j1 and j2 are submitted exactly at 100. j1 (lower id)
  // starts at once, j2 after it.
  const Workload w = hand_built_workload({make_job(0, 0, 16, 100), make_job(1, 100, 16, 10), make_job(2, 100, 16, 10)});
  const RunResult r = run_simulation(hand_built_scenario(tiny_cluster(2, 2), "fifo"), w);
  CHECK(r.run->jobs().record(1).start_s == 100);
  CHECK(r.run->jobs().record(2).start_s == 110);
  CHECK(r.makespan_s == 120);
}

TEST_CASE("a 12-GPU job takes two whole nodes and the ledger shows the 4 stranded GPUs")
{
  const Workload w = hand_built_workload({make_job(0, 0, 12, 100)});
  const RunResult r = run_simulation(hand_built_scenario(tiny_cluster(2, 2), "fifo"), w);
  CHECK(r.run->allocation(0).node_count() == 2);
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(1200));
  CHECK(ledger.gpu_seconds(GpuState::Stranded) == Approx(400));
  CHECK(ledger.gpu_seconds(GpuState::Idle) == 0);
  CHECK(ledger.total_gpu_seconds() == Approx(16 * 100));
}

TEST_CASE("CPU-only jobs run without GPUs and oversized jobs are rejected, both counted")
{
  const Workload w = hand_built_workload({make_job(0, 0, 0, 50), make_job(1, 5, 32, 10), make_job(2, 10, 8, 10)});
  const RunResult r = run_simulation(hand_built_scenario(tiny_cluster(2, 2), "easy-backfill"), w);
  const JobTable& jobs = r.run->jobs();
  CHECK(jobs.record(0).outcome == JobOutcome::Ended);
  CHECK(jobs.record(0).start_s == 0);
  CHECK(jobs.record(0).end_s == 50);
  CHECK(r.run->allocation(0).empty());
  CHECK(jobs.record(1).outcome == JobOutcome::Rejected);
  CHECK(jobs.record(2).start_s == 10);
  CHECK(r.run->cpu_only_jobs() == 1);
  CHECK(r.run->jobs().rejected_count() == 1);
  CHECK(r.makespan_s == 50);
  CHECK(r.run->ledger().gpu_seconds(GpuState::Busy) == Approx(80));
  CHECK(r.run->ledger().total_gpu_seconds() == Approx(16 * 50));
}

TEST_CASE("zero-length jobs start and end at their submission instant")
{
  const Workload w = hand_built_workload({make_job(0, 0, 8, 0), make_job(1, 0, 16, 5)});
  const RunResult r = run_simulation(hand_built_scenario(tiny_cluster(2, 2), "fifo"), w);
  CHECK(r.run->jobs().record(0).end_s == 0);
  // j1 needs both nodes: it can only start once j0 (zero length) has ended, at the same instant.
  CHECK(r.run->jobs().record(1).start_s == 0);
  CHECK(r.makespan_s == 5);
}
