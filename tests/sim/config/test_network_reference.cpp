// The reference fabric: recorded durations belong to the cluster the scenario's text describes,
// so a --set on the cluster moves the cluster and leaves the reference where it was.
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

const std::string KALOS = "cluster: {preset: kalos}\n";

} // namespace

TEST_CASE("network reference: every pod's is pinned to its own fabric as written")
{
  const Scenario s = load(KALOS + WORKLOAD);
  REQUIRE(s.network.reference.size() == 1);
  const ReferenceFabric& ref = s.network.reference.at("kalos");
  CHECK(ref.compute_nics == 4);
  CHECK(ref.nic_bandwidth_Gbps == 200);
  CHECK(ref.nvlink_bandwidth_GBps == s.cluster.pods[0].nvlink_bandwidth_GBps);
}

TEST_CASE("network reference: a --set on the cluster changes the cluster, not the reference")
{
  const Scenario s = load(KALOS + WORKLOAD, {"cluster.compute_nics=1", "cluster.nvlink_bandwidth_GBps=150"});
  CHECK(s.cluster.pods[0].compute_nics == 1);
  CHECK(s.cluster.pods[0].nvlink_bandwidth_GBps == 150);
  const ReferenceFabric& ref = s.network.reference.at("kalos");
  CHECK(ref.compute_nics == 4);
  CHECK(ref.nvlink_bandwidth_GBps == 300);

  // A pod of a preset's pod list, edited by --set: its jobs were still timed on the preset's pod.
  const Scenario acme = load("cluster: {preset: acme}\n" + WORKLOAD, {"cluster.pods.1.compute_nics=2"});
  CHECK(acme.cluster.pods[1].compute_nics == 2);
  CHECK(acme.network.reference.at("seren").compute_nics == 1);
  CHECK(acme.network.reference.at("kalos").compute_nics == 4);
}

TEST_CASE("network reference: what the scenario gives is kept, and what it leaves out is filled")
{
  const Scenario s = load(KALOS + WORKLOAD + "network:\n  reference:\n    kalos: {compute_nics: 2}\n",
                          {"cluster.nic_bandwidth_Gbps=100"});
  const ReferenceFabric& ref = s.network.reference.at("kalos");
  CHECK(ref.compute_nics == 2);
  CHECK(ref.nic_bandwidth_Gbps == 200);
  // A --set on the reference itself is the way to move it.
  CHECK(load(KALOS + WORKLOAD, {"network.reference.kalos.compute_nics=1"}).network.reference.at("kalos").compute_nics ==
        1);
}

TEST_CASE("network reference: a pod the text does not describe is its own reference")
{
  // The preset swapped: the text's Kalos pod is not in the cluster that runs.
  const Scenario seren = load(KALOS + WORKLOAD, {"cluster.preset=seren"});
  REQUIRE(seren.network.reference.size() == 1);
  CHECK(seren.network.reference.at("seren").compute_nics == 1);
  // A pod renamed: no pod of the text has its name.
  const Scenario renamed = load("cluster:\n  pods: [{name: a, nodes: 2, compute_nics: 2}]\n" + WORKLOAD,
                                {"cluster.pods.0.name=b", "cluster.pods.0.compute_nics=1"});
  CHECK(renamed.network.reference.at("b").compute_nics == 1);
}
