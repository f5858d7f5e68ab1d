// NVLink domains beyond a node (PodSpec::nvlink_domain_nodes), in whole runs worked out by hand: a
// job within one domain puts nothing on a NIC; a job across domains runs a ring lane per node of a
// domain, so a domain's traffic leaves over all its nodes' NICs together.
#include "tests/support/CommunicationProbe.hpp"
#include "tests/support/NetworkRuns.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// Job 0 of `gpus` GPUs for 1000 s on `cluster`, with the network model of NetworkRuns.hpp and its
// step on the reference fabric `step_time_s`; what the probe saw of it at t = 100.
std::optional<JobCommunication> communication_of(const ClusterSpec& cluster, int gpus, double step_time_s,
                                                 double* ran_s = nullptr)
{
  Scenario s = network_scenario(cluster, "pack", step_time_s);
  s.scheduler.name = "test-communication-probe";
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, gpus, 1000)}));
  const auto& record = r.run->jobs().record(0);
  REQUIRE(record.outcome == JobOutcome::Ended);
  if (ran_s != nullptr)
    *ran_s = record.end_s - record.start_s;
  return probe_seen().at(100);
}

// Four nodes of 4 GPUs and one 8e6 B/s NIC on one leaf, NVLink domains of `domain` nodes.
ClusterSpec four_gpu_nodes(int domain)
{
  ClusterSpec cluster = one_spine_cluster(4, 4, 1e9);
  cluster.pods[0].gpus_per_node = 4;
  cluster.pods[0].nvlink_domain_nodes = domain;
  return cluster;
}

std::multiset<std::string> node_cables_of(const JobCommunication& c)
{
  std::multiset<std::string> out;
  for (const CommLink& link : c.links)
    if (!link.uplink)
      out.insert(link.name);
  return out;
}

} // namespace

// One run per test case: SimGrid keeps one engine per process.
TEST_CASE("NVLink domains: a job within one domain puts nothing on a NIC, though it spans two nodes")
{
  // 8 GPUs on two 4-GPU nodes of one domain: TP 8 over NVLink, no data parallelism across domains.
  double ran_s = 0;
  CHECK_FALSE(communication_of(four_gpu_nodes(2), 8, step_s(2, TINY_NIC_Bps), &ran_s).has_value());
  CHECK(ran_s == Approx(1000)); // no ring: its reference speed
}

TEST_CASE("NVLink domains: the same job where NVLink stops at the node runs a ring over the two nodes' NICs")
{
  const auto per_node = communication_of(four_gpu_nodes(1), 8, step_s(2, TINY_NIC_Bps));
  REQUIRE(per_node.has_value());
  CHECK(per_node->bytes > 0);
  CHECK(node_cables_of(*per_node) ==
        std::multiset<std::string>{"tiny-n0-leaf0_UP", "tiny-n0-leaf0_DOWN", "tiny-n1-leaf0_UP", "tiny-n1-leaf0_DOWN"});
}

TEST_CASE("NVLink domains: a job across two domains runs a lane per node, each domain sending on both its NICs")
{
  // 16 GPUs on 4 nodes, domains {0, 1} and {2, 3}: per domain the layout of NetworkRuns.hpp's
  // two-node jobs (8 GPUs, TP 8, DP 2), 24e6 bytes a domain a step, carried by lanes 0 -> 2 and
  // 1 -> 3 (and back) at 8e6 B/s each: 16e6 B/s a domain, 1.5 s of a step of 1 + tp + 1.5 s.
  const double domain_Bps = 2 * TINY_NIC_Bps;
  const auto c = communication_of(four_gpu_nodes(2), 16, step_s(2, domain_Bps));
  REQUIRE(c.has_value());
  CHECK(c->bytes == Approx(24e6));
  CHECK(c->alone_Bps == Approx(domain_Bps));
  CHECK(c->rate_Bps == Approx(domain_Bps));
  CHECK(c->sending_s == Approx(1.5));
  CHECK(c->step_s == Approx(step_s(2, domain_Bps)));
  CHECK(c->slowdown == Approx(1));
  // Each node's cable carries one flow each way: its lane's send and receive.
  CHECK(node_cables_of(*c) == std::multiset<std::string>{"tiny-n0-leaf0_UP", "tiny-n0-leaf0_DOWN", "tiny-n1-leaf0_UP",
                                                         "tiny-n1-leaf0_DOWN", "tiny-n2-leaf0_UP", "tiny-n2-leaf0_DOWN",
                                                         "tiny-n3-leaf0_UP", "tiny-n3-leaf0_DOWN"});
  for (const CommLink& link : c->links)
    CHECK(link.flows == 1);
}

namespace {

// Two racks of the gb200-nvl72 preset's shape: 18 trays of 4 GPUs and 4 x 400 Gb/s NICs a rack,
// rail-wired, a rack a rail group.
ClusterSpec two_nvl72_racks()
{
  ClusterSpec cluster = one_spine_cluster(36, 18, 400e9 / 8);
  PodSpec& pod = cluster.pods[0];
  pod.gpus_per_node = 4;
  pod.nvlink_domain_nodes = 18;
  pod.compute_nics = 4;
  pod.nic_bandwidth_Gbps = 400;
  pod.fabric.wiring = FabricWiring::Rail;
  pod.fabric.leaf_radix = 36;
  return cluster;
}

} // namespace

TEST_CASE("NVLink domains: on GB200 NVL72 racks a job of 72 GPUs never touches a NIC")
{
  double ran_s = 0;
  CHECK_FALSE(communication_of(two_nvl72_racks(), 72, 10, &ran_s).has_value());
  CHECK(ran_s == Approx(1000));
}

TEST_CASE("NVLink domains: on GB200 NVL72 racks a job of 144 GPUs sends over all 36 trays' NICs")
{
  // A lane per tray, 18 a rack, each tray's cable one flow each way, then the rail switches'
  // uplinks between the racks.
  const double tray_Bps = 4 * 400e9 / 8;
  const auto both = communication_of(two_nvl72_racks(), 144, 10);
  REQUIRE(both.has_value());
  CHECK(both->alone_Bps == Approx(18 * tray_Bps));
  CHECK(node_cables_of(*both).size() == 72);
  bool crosses_uplinks = false;
  for (const CommLink& link : both->links)
    crosses_uplinks = crosses_uplinks || link.uplink;
  CHECK(crosses_uplinks);
}
