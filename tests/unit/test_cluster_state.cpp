#include "sim/scheduler/ClusterState.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::tiny_cluster;

TEST_CASE("job_shape: jobs within one node stay on one node, larger ones take whole nodes")
{
  CHECK(job_shape(1, 8).nodes == 1);
  CHECK(job_shape(8, 8).whole_nodes == false);
  const JobShape twelve = job_shape(12, 8);
  CHECK(twelve.nodes == 2);
  CHECK(twelve.gpus_per_node == 8);
  CHECK(twelve.whole_nodes);
  CHECK(twelve.gpus_held() == 16);
  CHECK(job_shape(1024, 8).nodes == 128);
}

TEST_CASE("ClusterState keeps free-GPU indexes in step with allocations")
{
  const Topology topo(tiny_cluster(4, 2));
  ClusterState state(topo);
  CHECK(state.free_gpus_total() == 32);
  CHECK(state.nodes_by_free(0, 8).size() == 4);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 2);

  Allocation a;
  a.parts = {{1, 3}};
  state.take(a);
  CHECK(state.free_gpus(1) == 5);
  CHECK(state.nodes_with_free(0, 5) == 1);
  CHECK(state.nodes_by_free(0, 5).count(1) == 1);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 1);
  CHECK(state.gpus_in_use() == 3);

  state.give_back(a);
  CHECK(state.free_gpus(1) == 8);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 2);
  CHECK(state.gpus_in_use() == 0);
}

TEST_CASE("ClusterState refuses to over-allocate or over-release")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  Allocation too_much;
  too_much.parts = {{0, 9}};
  CHECK_THROWS_AS(state.take(too_much), std::logic_error);
  Allocation some;
  some.parts = {{0, 2}};
  CHECK_THROWS_AS(state.give_back(some), std::logic_error);
}

TEST_CASE("CapacityProfile::fits answers for partial and whole-node requests")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  Allocation a;
  a.parts = {{0, 5}};
  state.take(a); // node0: 3 free, node1: 8 free
  CHECK(state.fits(8));
  CHECK(state.fits(3));
  CHECK_FALSE(state.fits(9)); // needs 2 whole nodes
  Allocation b;
  b.parts = {{1, 6}};
  state.take(b); // node0: 3, node1: 2
  CHECK(state.fits(3));
  CHECK_FALSE(state.fits(4));
  // The copy answers what-if questions without touching the live state.
  CapacityProfile what_if = state.capacity();
  what_if.give_back(a);
  CHECK(what_if.fits(8));
  CHECK_FALSE(state.fits(8));
}
