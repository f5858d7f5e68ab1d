// The las scheduler on hand-built queues: queues by attained service, demotion when a running
// job's service crosses a threshold, and preemption of jobs in later queues.
#include "sim/policies/LasScheduler.hpp"
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

// Two queues split at 800 GPU-seconds (100 s of a whole 8-GPU node).
LasScheduler two_queues(const Topology& topology)
{
  return LasScheduler(topology, std::make_unique<PackPlacement>(), {800});
}

} // namespace

TEST_CASE("las: queues by attained service")
{
  HandBuiltView view(tiny_cluster(1, 1));
  const LasScheduler s(view.topology(), std::make_unique<PackPlacement>(), {3600, 36000});
  CHECK(s.queue_of(0) == 0);
  CHECK(s.queue_of(3599) == 0);
  CHECK(s.queue_of(3600) == 1);
  CHECK(s.queue_of(40000) == 2);
}

TEST_CASE("las demotes a running job when its service crosses a threshold, and a job queued ahead preempts it")
{
  HandBuiltView view(tiny_cluster(1, 1));
  LasScheduler s = two_queues(view.topology());
  REQUIRE(view.submit(s, 0, {make_job(0, 0, 8, 1000)}) == Ids{0});
  // At 50 j0 has 400 GPU-seconds, still in queue 0 with j1: j1 waits behind it, and the scheduler
  // asks to be woken when j0 crosses 800 GPU-seconds, at 100.
  CHECK(view.submit(s, 50, {make_job(1, 50, 8, 100)}).empty());
  CHECK(view.preempted.empty());
  CHECK(view.wake_at == 100);
  // At 100 j0 moves to queue 1, and j1 (queue 0) takes the node from it.
  CHECK(view.decide(s, 100, {}) == Ids{1});
  CHECK(view.preempted == Ids{0});
  CHECK(view.is_queued(0));
  // j1 crosses 800 GPU-seconds at 200, when it ends: j0 (queue 1, 800 GPU-seconds) comes back.
  CHECK(view.finish(s, 200, 1) == Ids{0});
}

TEST_CASE("las: a job in the same queue or a later one never preempts, and one that cannot fit lets others start")
{
  HandBuiltView view(tiny_cluster(2, 2));
  LasScheduler s = two_queues(view.topology());
  REQUIRE(view.submit(s, 0, {make_job(0, 0, 8, 1000)}) == Ids{0});
  // j1 wants both nodes: it does not fit and j0 is in its own queue; j2 fits on the free node.
  CHECK(view.submit(s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 100)}) == Ids{2});
  CHECK(view.preempted.empty());
}
