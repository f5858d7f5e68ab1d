// Conservative backfilling on hand-built queues, against EASY on the same queue, and the free-GPU
// timeline its reservations are made on.
#include "sim/policies/ConservativeBackfillScheduler.hpp"
#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/Placements.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::HandBuiltView;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

namespace {

using Ids = std::vector<JobId>;

// Four nodes of 8 GPUs. r0 holds node 0 until 100, r1 node 1 until 300. Queued at 0, in order:
// j2 wants the whole cluster for 50 s, j3 three nodes for 100 s, j4 one node for 150 s.
void start_scenario(Scheduler& s, HandBuiltView& view)
{
  REQUIRE(view.submit(s, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 8, 300)}) == Ids{0, 1});
}
std::vector<Job> queued_jobs()
{
  return {make_job(2, 0, 32, 50), make_job(3, 0, 24, 100), make_job(4, 0, 8, 150)};
}

} // namespace

TEST_CASE("conservative backfilling honours the second job's reservation where EASY delays it")
{
  // EASY protects only j2 (reserved at 300): j4 ends by then, so it starts at once on a free
  // node, and j3, which could have started at 100 when r0 ends, waits for j4 until 150.
  {
    HandBuiltView view(tiny_cluster(4, 4));
    EasyBackfillScheduler easy(view.topology(), std::make_unique<PackPlacement>(), 1000);
    start_scenario(easy, view);
    CHECK(view.submit(easy, 0, queued_jobs()) == Ids{4});
    CHECK(view.finish(easy, 100, 0).empty());
    CHECK(view.finish(easy, 150, 4) == Ids{3});
    CHECK(view.finish(easy, 250, 3).empty());
    CHECK(view.finish(easy, 300, 1) == Ids{2});
  }
  // Conservative: j2 is reserved at 300 on every node, j3 at 100 on nodes 0, 2 and 3 until 200;
  // j4, submitted a little later (planned after the reservations that stand), finds 150 s on
  // one node only after j2, at 350.
  HandBuiltView view(tiny_cluster(4, 4));
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), 1000);
  start_scenario(conservative, view);
  std::vector<Job> jobs = queued_jobs();
  const Job j4 = jobs.back();
  jobs.pop_back();
  CHECK(view.submit(conservative, 0, jobs).empty());
  CHECK(view.submit(conservative, 10, {j4}).empty());
  CHECK(view.finish(conservative, 100, 0) == Ids{3});
  CHECK(view.finish(conservative, 200, 3).empty());
  CHECK(view.finish(conservative, 300, 1) == Ids{2});
  CHECK(view.finish(conservative, 350, 2) == Ids{4});
}

TEST_CASE("conservative backfilling starts a later job at once when it delays no reservation")
{
  // As above, but j4 needs only 100 s: on node 2 or 3 it ends at 100, when j3's reservation begins.
  HandBuiltView view(tiny_cluster(4, 4));
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), 1000);
  start_scenario(conservative, view);
  std::vector<Job> jobs = queued_jobs();
  jobs[2].duration_s = 100;
  CHECK(view.submit(conservative, 0, jobs) == Ids{4});
  CHECK(view.finish(conservative, 100, 0).empty()); // j4 has not ended yet: any moment now
  CHECK(view.finish(conservative, 100, 4) == Ids{3});
}

TEST_CASE("free-GPU timeline: the fewest free GPUs over a window, gains before losses at one time")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FreeGpuTimeline timeline(view.cluster(), 0);
  const Allocation node0{{{0, 8}}};
  timeline.hold(node0, 0, 100);          // busy now until 100
  timeline.hold(Allocation{{{0, 4}}}, 100, 200); // half of it reserved from 100 to 200
  CHECK(timeline.min_free(0, 0, 50) == 0);
  CHECK(timeline.min_free(0, 100, 150) == 4); // the release at 100 counts before the hold
  CHECK(timeline.min_free(0, 150, 300) == 4);
  CHECK(timeline.min_free(0, 200, 300) == 8);
  CHECK(timeline.min_free(1, 0, 1000) == 8);

  // A two-node job of 100 s: node 0 is wholly free from 200 only.
  const auto whole = timeline.earliest(16, 100);
  REQUIRE(whole);
  CHECK(whole->start == 200);
  CHECK(whole->allocation.node_count() == 2);
  // A 4-GPU job goes on node 1 now; then a 6-GPU job of 300 s waits for node 0 at 200 (node 1
  // keeps only 4 free until the 4-GPU job ends at 500).
  const auto small = timeline.earliest(4, 500);
  REQUIRE(small);
  CHECK(small->start == 0);
  timeline.hold(small->allocation, 0, 500);
  const auto medium = timeline.earliest(6, 300);
  REQUIRE(medium);
  CHECK(medium->start == 200);
  CHECK(medium->allocation.parts.front().node == 0);
}

TEST_CASE("free-GPU timeline: after the present moves, wholly free stretches begin at the new present")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FreeGpuTimeline timeline(view.cluster(), 0);
  timeline.hold(Allocation{{{1, 8}}}, 100, 200); // node 1 reserved over [100, 200)
  const auto at_zero = timeline.earliest(16, 80);
  REQUIRE(at_zero);
  CHECK(at_zero->start == 0); // both nodes free over [0, 80)
  // At 50, 80 s on both nodes would run into node 1's reservation: not before 200.
  timeline.advance_to(50);
  const auto at_fifty = timeline.earliest(16, 80);
  REQUIRE(at_fifty);
  CHECK(at_fifty->start == 200);
}
