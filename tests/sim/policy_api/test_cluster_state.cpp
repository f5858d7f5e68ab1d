#include "sim/policy_api/ClusterState.hpp"
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

TEST_CASE("ClusterState: a node out of service has no free GPUs and leaves every index")
{
  const Topology topo(tiny_cluster(4, 2)); // leaves: {0, 1}, {2, 3}
  ClusterState state(topo);
  state.set_in_service(1, false);
  CHECK_FALSE(state.in_service(1));
  CHECK(state.in_service(0));
  CHECK(state.free_gpus(1) == 0);
  CHECK(state.free_gpus_total() == 24);
  CHECK(state.gpus_in_use() == 8); // counted as not free
  CHECK(state.held_gpus(1) == 0);
  CHECK(state.nodes_with_free(0, 8) == 3);
  CHECK(state.nodes_with_free(0, 0) == 1);
  CHECK(state.nodes_by_free(0, 8).count(1) == 0);
  CHECK(state.nodes_by_free(0, 8).size() == 3);
  CHECK(state.nodes_by_free(0, 0).count(1) == 1);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 1);
  CHECK(state.wholly_free_nodes_of_leaf(1) == 2);

  // Taking GPUs on it is refused: it has none free.
  Allocation a;
  a.parts = {{1, 1}};
  CHECK_THROWS_AS(state.take(a), std::logic_error);

  // Setting the same state twice changes nothing.
  state.set_in_service(1, false);
  CHECK(state.free_gpus_total() == 24);
  CHECK(state.nodes_with_free(0, 0) == 1);

  state.set_in_service(1, true);
  CHECK(state.in_service(1));
  CHECK(state.free_gpus(1) == 8);
  CHECK(state.free_gpus_total() == 32);
  CHECK(state.nodes_with_free(0, 8) == 4);
  CHECK(state.nodes_with_free(0, 0) == 0);
  CHECK(state.nodes_by_free(0, 8).count(1) == 1);
  CHECK(state.nodes_by_free(0, 0).empty());
  CHECK(state.wholly_free_nodes_of_leaf(0) == 2);

  state.set_in_service(1, true);
  CHECK(state.free_gpus_total() == 32);
}

TEST_CASE("ClusterState: GPUs held on an out-of-service node are given back without becoming free")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  Allocation job;
  job.parts = {{0, 3}};
  state.take(job);
  CHECK(state.held_gpus(0) == 3);
  CHECK(state.nodes_by_free(0, 5).count(0) == 1);

  state.set_in_service(0, false);
  CHECK(state.free_gpus(0) == 0);
  CHECK(state.held_gpus(0) == 3);
  CHECK(state.free_gpus_total() == 8);
  CHECK(state.nodes_with_free(0, 5) == 0);
  CHECK(state.nodes_by_free(0, 5).empty());
  CHECK(state.nodes_by_free(0, 0).count(0) == 1);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 1);

  state.give_back(job);
  CHECK(state.held_gpus(0) == 0);
  CHECK(state.free_gpus(0) == 0);
  CHECK(state.free_gpus_total() == 8);
  CHECK(state.nodes_with_free(0, 0) == 1);
  CHECK(state.nodes_with_free(0, 8) == 1);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 1);
  // Given back once: a second release is refused.
  CHECK_THROWS_AS(state.give_back(job), std::logic_error);

  // Back in service with nothing held: wholly free again.
  state.set_in_service(0, true);
  CHECK(state.free_gpus(0) == 8);
  CHECK(state.free_gpus_total() == 16);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 2);
}

TEST_CASE("ClusterState: back in service a node frees its GPUs minus those still held")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  Allocation a;
  a.parts = {{1, 2}};
  Allocation b;
  b.parts = {{1, 4}};
  state.take(a);
  state.take(b); // node1: 6 held, 2 free
  state.set_in_service(1, false);
  state.give_back(a); // node1: 4 held, still 0 free
  CHECK(state.free_gpus(1) == 0);
  CHECK(state.held_gpus(1) == 4);
  state.set_in_service(1, true);
  CHECK(state.free_gpus(1) == 4);
  CHECK(state.nodes_by_free(0, 4).count(1) == 1);
  CHECK(state.nodes_with_free(0, 4) == 1);
  CHECK(state.nodes_with_free(0, 0) == 0);
  CHECK(state.free_gpus_total() == 12);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 1);
  state.give_back(b); // in service: freed
  CHECK(state.free_gpus(1) == 8);
  CHECK(state.wholly_free_nodes_of_leaf(0) == 2);
  CHECK(state.gpus_in_use() == 0);
}

TEST_CASE("ClusterState: a fully allocated node can leave and re-enter service")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  Allocation whole;
  whole.parts = {{0, 8}};
  state.take(whole);
  state.set_in_service(0, false);
  CHECK(state.free_gpus(0) == 0);
  CHECK(state.nodes_with_free(0, 0) == 1);
  CHECK(state.nodes_by_free(0, 0).count(0) == 1);
  state.set_in_service(0, true);
  CHECK(state.free_gpus(0) == 0);
  CHECK(state.nodes_with_free(0, 0) == 1);
  state.give_back(whole);
  CHECK(state.free_gpus(0) == 8);
  CHECK(state.nodes_with_free(0, 8) == 2);
}

TEST_CASE("CapacityProfile::fits refuses requests that need an out-of-service node")
{
  const Topology topo(tiny_cluster(2, 2));
  ClusterState state(topo);
  CHECK(state.fits(16));
  state.set_in_service(1, false);
  CHECK_FALSE(state.fits(16)); // needs both nodes whole
  CHECK_FALSE(state.fits(9));
  CHECK(state.fits(8));
  state.set_in_service(0, false);
  CHECK_FALSE(state.fits(1));
  state.set_in_service(1, true);
  CHECK(state.fits(8));
  CHECK_FALSE(state.fits(16));
}

TEST_CASE("CapacityProfile copies keep nodes out of service and held GPUs")
{
  const Topology topo(tiny_cluster(3, 3));
  ClusterState state(topo);
  Allocation job;
  job.parts = {{2, 8}};
  state.take(job);
  state.set_in_service(2, false);

  CapacityProfile what_if = state.capacity();
  CHECK_FALSE(what_if.in_service(2));
  CHECK(what_if.held_gpus(2) == 8);
  CHECK(what_if.free_gpus(2) == 0);
  CHECK(what_if.free_gpus_total() == 16);
  // The job ending would not make the out-of-service node usable.
  what_if.give_back(job);
  CHECK(what_if.free_gpus(2) == 0);
  CHECK(what_if.held_gpus(2) == 0);
  CHECK_FALSE(what_if.fits(24));
  CHECK(what_if.fits(16));
  // Nor did it touch the live state.
  CHECK(state.held_gpus(2) == 8);

  // Putting the node back in the copy frees it there only.
  what_if.set_in_service(2, true);
  CHECK(what_if.fits(24));
  CHECK(what_if.free_gpus_total() == 24);
  CHECK_FALSE(state.in_service(2));
  CHECK(state.free_gpus_total() == 16);

  // A copy of the whole ClusterState keeps the indexes.
  const ClusterState copy = state;
  CHECK_FALSE(copy.in_service(2));
  CHECK(copy.nodes_by_free(0, 0).count(2) == 1);
  CHECK(copy.wholly_free_nodes_of_leaf(0) == 2);
}
