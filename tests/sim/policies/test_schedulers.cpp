// Schedulers on hand-built queues, without the engine: a minimal ClusterView stands in for the
// simulation, and the tests check the decisions.
#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FifoScheduler.hpp"
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

std::unique_ptr<Scheduler> easy(const Topology& t, int depth = 1000)
{
  return std::make_unique<EasyBackfillScheduler>(t, std::make_unique<PackPlacement>(), depth);
}

} // namespace

TEST_CASE("fifo starts jobs in order and blocks behind a head that does not fit")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FifoScheduler fifo(view.topology(), std::make_unique<PackPlacement>());
  CHECK(view.submit(fifo, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // j1 needs both nodes; j2 would fit on node1 but must wait behind j1.
  CHECK(view.submit(fifo, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 50)}).empty());
  // When j0 ends, j1 starts; j2 still waits.
  CHECK(view.finish(fifo, 100, 0) == Ids{1});
  CHECK(view.finish(fifo, 200, 1) == Ids{2});
}

TEST_CASE("easy-backfill starts a short job that ends before the head's reservation")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // Shadow time for j1 is 100; j2 ends at 60 <= 100 and starts on node1.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 50)}) == Ids{2});
  CHECK(view.allocation(2).parts[0].node == 1);
  // A job that would run past 100 on node1 would delay j1: it waits.
  CHECK(view.submit(*s, 20, {make_job(3, 20, 2, 500)}).empty());
}

// Three nodes. j0 (8 GPUs) on node0 ends at 100; j1 (2 GPUs) on node1 runs long.
// Head j2 needs two whole nodes: only node2 is wholly free, so it is reserved at t = 100 on
// nodes 0 and 2; node1's 6 free GPUs are not needed by it.
TEST_CASE("easy-backfill lets long jobs use only GPUs the reservation does not need")
{
  HandBuiltView view(tiny_cluster(3, 3));
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 2, 1000)}) == Ids{0, 1});
  const Ids started = view.submit(*s, 10,
                                  {make_job(2, 10, 16, 100),   // head: reserved
                                   make_job(3, 10, 8, 1000),   // long, would take node2: refused
                                   make_job(4, 10, 4, 1000),   // long, fits on node1's spare GPUs
                                   make_job(5, 10, 8, 50)});   // ends at 60 <= 100: backfilled on node2
  CHECK(started == Ids{4, 5});
  CHECK(view.allocation(4).parts[0].node == 1);
  CHECK(view.allocation(5).parts[0].node == 2);
}

TEST_CASE("easy-backfill reserves against the run's estimates: over-estimates make fewer jobs look short")
{
  HandBuiltView view(tiny_cluster(2, 2));
  view.estimates_model = RuntimeEstimates{EstimateModel::Factor, 3.0};
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // Estimated end of j0 is 300 (shadow); j2 is estimated at 10 + 3 x 50 = 160 <= 300: starts.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 50)}) == Ids{2});
  // j3 (estimate 20 + 3 x 100 = 320 > 300) would use node1, which the head needs: refused.
  CHECK(view.submit(*s, 20, {make_job(3, 20, 2, 100)}).empty());
}

namespace {

Job requesting(Job job, double requested_s)
{
  job.requested_s = requested_s;
  return job;
}

} // namespace

// Two nodes of 8 GPUs. j0 (8 GPUs) runs 100 s but its user asked for 1000; the head j1 needs both
// nodes. j2 (4 GPUs) runs 500 s and asked for 600: it ends before j0's requested end, not its real one.
TEST_CASE("easy-backfill backfills by requested times under estimates: requested, by run times under actual")
{
  const bool requested = GENERATE(false, true);
  INFO((requested ? "requested" : "actual"));
  HandBuiltView view(tiny_cluster(2, 2));
  view.estimates_model = RuntimeEstimates{requested ? EstimateModel::Requested : EstimateModel::Actual, 1};
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {requesting(make_job(0, 0, 8, 100), 1000)}) == Ids{0});
  const Ids started =
      view.submit(*s, 10, {requesting(make_job(1, 10, 16, 100), 200), requesting(make_job(2, 10, 4, 500), 600)});
  // Shadow time 1000 (requested) or 100 (actual): 10 + 600 <= 1000 starts j2; 10 + 500 > 100 does not.
  CHECK(started == (requested ? Ids{2} : Ids{}));
}

// A job that runs past its requested time: j0 asked for 100 s and runs 300. Once its request is
// over it may end at any moment, so nothing may take GPUs the head needs then.
TEST_CASE("easy-backfill lends no GPU the head needs while a job runs past its requested time")
{
  HandBuiltView view(tiny_cluster(2, 2));
  view.estimates_model = RuntimeEstimates{EstimateModel::Requested, 1};
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {requesting(make_job(0, 0, 8, 300), 100)}) == Ids{0});
  // Shadow time 100: j2, asking for 50 s, ends before it and starts on node1.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), requesting(make_job(2, 10, 4, 40), 50)}) == Ids{2});
  CHECK(view.finish(*s, 50, 2).empty());
  // At 150 j0 has overrun its request: even a 1 s job on node1 could delay the head.
  CHECK(view.submit(*s, 150, {requesting(make_job(3, 150, 4, 1), 1)}).empty());
  // j0 ends at 300: the head starts, then j3 waits behind it on the full cluster.
  CHECK(view.finish(*s, 300, 0) == Ids{1});
}

TEST_CASE("easy-backfill examines at most backfill_depth jobs behind the head")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology(), 1);
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // j2 does not fit (needs 8 on node1? it does fit but runs long), j3 is short but is the
  // second job behind the head: not examined.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 8, 500), make_job(3, 10, 1, 5)}).empty());
}

// ---- Failures: nodes leaving and entering service, interrupted jobs requeued ----------------

namespace {

SchedulerEvent node_down(double t, NodeId node) { return SchedulerEvent{EventKind::NodeDown, t, 0, node}; }
SchedulerEvent node_up(double t, NodeId node) { return SchedulerEvent{EventKind::NodeUp, t, 0, node}; }
SchedulerEvent requeued(double t, JobId job) { return SchedulerEvent{EventKind::JobRequeued, t, job, 0}; }
SchedulerEvent finished(double t, JobId job) { return SchedulerEvent{EventKind::JobFinished, t, job, 0}; }

std::unique_ptr<Scheduler> fifo(const Topology& t)
{
  return std::make_unique<FifoScheduler>(t, std::make_unique<PackPlacement>());
}

using Nodes = std::vector<NodeId>;

Nodes nodes_of(const Allocation& a)
{
  Nodes nodes;
  for (const auto& part : a.parts)
    nodes.push_back(part.node);
  return nodes;
}

} // namespace

TEST_CASE("schedulers do not place jobs on a node that went down though a job still holds part of it")
{
  const bool use_easy = GENERATE(false, true);
  INFO((use_easy ? "easy-backfill" : "fifo"));
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = use_easy ? easy(view.topology()) : fifo(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 4, 1000)}) == Ids{0});
  REQUIRE(nodes_of(view.allocation(0)) == Nodes{0});
  // Node 0 fails; j0 stays on it, recovering in place. Without the resync the mirror would
  // still see 4 free GPUs on node 0, the best fit for a 4-GPU job.
  view.take_down(0);
  CHECK(view.decide(*s, 10, {node_down(10, 0)}).empty());
  CHECK(view.submit(*s, 20, {make_job(1, 20, 4, 100)}) == Ids{1});
  CHECK(nodes_of(view.allocation(1)) == Nodes{1});
  CHECK(view.submit(*s, 30, {make_job(2, 30, 4, 100)}) == Ids{2});
  CHECK(nodes_of(view.allocation(2)) == Nodes{1});
  // Node 1 is full and node 0 is out of service: nothing fits.
  CHECK(view.submit(*s, 40, {make_job(3, 40, 2, 100)}).empty());
  // Back in service, node 0 offers what j0 does not hold.
  view.bring_up(0);
  CHECK(view.decide(*s, 50, {node_up(50, 0)}) == Ids{3});
  CHECK(nodes_of(view.allocation(3)) == Nodes{0});
}

TEST_CASE("schedulers take running allocations that lost a failed node from the view")
{
  const bool use_easy = GENERATE(false, true);
  INFO((use_easy ? "easy-backfill" : "fifo"));
  HandBuiltView view(tiny_cluster(3, 3));
  auto s = use_easy ? easy(view.topology()) : fifo(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 16, 1000)}) == Ids{0});
  REQUIRE(nodes_of(view.allocation(0)) == (Nodes{0, 1}));
  // Node 0 fails and j0 loses it: j0 now holds node 1 only.
  view.take_down(0, true);
  CHECK(view.decide(*s, 10, {node_down(10, 0)}).empty());
  // j0 ends: the scheduler gives back node 1 only (node 0 holds nothing any more).
  view.end_job(0);
  std::vector<JobId> started;
  REQUIRE_NOTHROW(started = view.decide(*s, 20, {finished(20, 0)}));
  CHECK(started.empty());
  // Nodes 1 and 2 are free, node 0 is not.
  CHECK(view.submit(*s, 30, {make_job(1, 30, 16, 100)}) == Ids{1});
  CHECK(nodes_of(view.allocation(1)) == (Nodes{1, 2}));
}

TEST_CASE("schedulers forget a requeued job and can start it again")
{
  const bool use_easy = GENERATE(false, true);
  INFO((use_easy ? "easy-backfill" : "fifo"));
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = use_easy ? easy(view.topology()) : fifo(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 1000)}) == Ids{0});
  REQUIRE(nodes_of(view.allocation(0)) == Nodes{0});
  view.take_down(0);
  CHECK(view.decide(*s, 10, {node_down(10, 0)}).empty());
  // j0 gives node 0 back (still out of service) and waits again: it restarts on node 1.
  view.requeue_job(0);
  CHECK(view.decide(*s, 20, {requeued(20, 0)}) == Ids{0});
  CHECK(nodes_of(view.allocation(0)) == Nodes{1});
  CHECK_FALSE(view.is_queued(0));
  // The scheduler knows the new allocation: its end gives node 1 back.
  view.end_job(0);
  REQUIRE_NOTHROW(view.decide(*s, 500, {finished(500, 0)}));
  view.bring_up(0);
  CHECK(view.decide(*s, 600, {node_up(600, 0)}).empty());
  // Every GPU is free again.
  CHECK(view.submit(*s, 700, {make_job(1, 700, 16, 100)}) == Ids{1});
  CHECK(nodes_of(view.allocation(1)) == (Nodes{0, 1}));
}

TEST_CASE("schedulers restart a requeued job whose allocation shrank in the same call as the failure")
{
  const bool use_easy = GENERATE(false, true);
  INFO((use_easy ? "easy-backfill" : "fifo"));
  HandBuiltView view(tiny_cluster(3, 3));
  auto s = use_easy ? easy(view.topology()) : fifo(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 16, 1000)}) == Ids{0});
  REQUIRE(nodes_of(view.allocation(0)) == (Nodes{0, 1}));
  // Node 0 fails under j0, which loses it and is requeued at once: both events in one call.
  view.take_down(0, true);
  view.requeue_job(0);
  std::vector<JobId> started;
  REQUIRE_NOTHROW(started = view.decide(*s, 10, {node_down(10, 0), requeued(10, 0)}));
  CHECK(started == Ids{0});
  CHECK(nodes_of(view.allocation(0)) == (Nodes{1, 2}));
  // It can be requeued a second time too.
  view.requeue_job(0);
  CHECK(view.decide(*s, 20, {requeued(20, 0)}) == Ids{0});
  CHECK(nodes_of(view.allocation(0)) == (Nodes{1, 2}));
}

TEST_CASE("easy-backfill with a head that cannot fit even when every running job ends")
{
  HandBuiltView view(tiny_cluster(3, 3));
  auto s = easy(view.topology());
  view.take_down(2);
  CHECK(view.decide(*s, 0, {node_down(0, 2)}).empty());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // j1 needs the three nodes, one of which is out of service: it has no reservation, and the
  // long j2 behind it starts on node 1.
  std::vector<JobId> started;
  REQUIRE_NOTHROW(started = view.submit(*s, 10, {make_job(1, 10, 24, 100), make_job(2, 10, 8, 1000)}));
  CHECK(started == Ids{2});
  CHECK(nodes_of(view.allocation(2)) == Nodes{1});
  // Full cluster: nothing starts.
  CHECK(view.submit(*s, 20, {make_job(3, 20, 4, 1000)}).empty());
  // j0 ends: the long j3 takes half of node 0.
  CHECK(view.finish(*s, 100, 0) == Ids{3});
  CHECK(nodes_of(view.allocation(3)) == Nodes{0});
  // j4 does not fit in the 4 GPUs left: a pass that starts nothing.
  CHECK(view.submit(*s, 110, {make_job(4, 110, 6, 10)}).empty());
  // A job submitted after that pass still starts on what is free.
  CHECK(view.submit(*s, 120, {make_job(5, 120, 2, 5000)}) == Ids{5});
  CHECK(nodes_of(view.allocation(5)) == Nodes{0});
  CHECK(view.is_queued(1));
  CHECK(view.is_queued(4));
}

TEST_CASE("easy-backfill with a head that cannot fit and nothing running")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology());
  view.take_down(1);
  CHECK(view.decide(*s, 0, {node_down(0, 1)}).empty());
  std::vector<JobId> started;
  REQUIRE_NOTHROW(started = view.submit(*s, 10, {make_job(0, 10, 16, 100), make_job(1, 10, 8, 1000)}));
  CHECK(started == Ids{1});
  CHECK(nodes_of(view.allocation(1)) == Nodes{0});
}

TEST_CASE("easy-backfill reserves for a blocked head again once its node is back")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology());
  view.take_down(1);
  CHECK(view.decide(*s, 0, {node_down(0, 1)}).empty());
  // j0 cannot fit while node 1 is down; j1 starts on node 0, estimated to end at 1010.
  CHECK(view.submit(*s, 10, {make_job(0, 10, 16, 100), make_job(1, 10, 8, 1000)}) == Ids{1});
  view.bring_up(1);
  CHECK(view.decide(*s, 20, {node_up(20, 1)}).empty());
  // j0 now has a reservation at 1010 on nodes 0 and 1: a long job may not take node 1...
  CHECK(view.submit(*s, 30, {make_job(2, 30, 8, 2000)}).empty());
  // ...but a job that ends by 1010 may.
  CHECK(view.submit(*s, 40, {make_job(3, 40, 8, 500)}) == Ids{3});
  CHECK(nodes_of(view.allocation(3)) == Nodes{1});
  // When j1 and j3 end, j0 starts before j2.
  CHECK(view.finish(*s, 540, 3).empty());
  CHECK(view.finish(*s, 1010, 1) == Ids{0});
}
