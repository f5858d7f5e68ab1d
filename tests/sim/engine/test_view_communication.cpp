// What the scheduler's view says of a running job's communication (ClusterView::communication),
// in a whole run worked out by hand: the period, the phase its ring sends, the bytes, the rates and
// the links it crosses, before and while another job's ring shares its uplinks.
#include "tests/support/CommunicationProbe.hpp"
#include "tests/support/NetworkRuns.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

std::vector<std::string> names_of(const JobCommunication& c)
{
  std::vector<std::string> out;
  for (const CommLink& link : c.links)
    out.push_back(link.name);
  return out;
}

} // namespace

TEST_CASE("view: a running job's communication is its period, sending phase, bytes, rates and links, and changes "
          "when another ring shares its uplinks")
{
  // The two-job case of test_network_sharing.cpp: 4 nodes of one 8e6 B/s NIC, 2 to a leaf with one
  // 8e6 B/s uplink, spread placement, ideal collectives, lock-step phases. Job 0 (1000 s) starts
  // at 0 on nodes 0 and 2; job 1 (300 s) arrives at 200 on nodes 1 and 3.
  Scenario s = network_scenario(one_spine_cluster(4, 2, TINY_NIC_Bps), "spread");
  s.scheduler.name = "test-communication-probe";
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 1000), make_job(1, 200, 16, 300)}));
  const auto& seen = probe_seen();
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);

  // At 0 job 0 is still queued when the probe reads the view: nothing.
  REQUIRE(seen.count(0) == 1);
  CHECK_FALSE(seen.at(0).has_value());
  // At 100, alone: its ring sends 24e6 bytes a node at the whole 8e6 B/s, 3 s of a 4.00023 s step.
  REQUIRE(seen.count(100) == 1);
  REQUIRE(seen.at(100).has_value());
  const JobCommunication& alone = *seen.at(100);
  CHECK(alone.bytes == Approx(24e6));
  CHECK(alone.rate_Bps == Approx(TINY_NIC_Bps));
  CHECK(alone.alone_Bps == Approx(TINY_NIC_Bps));
  CHECK(alone.step_s == Approx(step_s(2, TINY_NIC_Bps)));
  CHECK(alone.sending_s == Approx(3));
  CHECK(alone.silent_s() == Approx(1 + tp_s(2)));
  CHECK(alone.slowdown == Approx(1));
  CHECK_FALSE(alone.paused);
  // Node 0 -> node 2 and back: each node's cable both ways and each leaf's uplinks both ways, one
  // flow on each.
  CHECK_THAT(names_of(alone), Catch::Matchers::UnorderedEquals(std::vector<std::string>{
                                  "tiny-n0-leaf0_UP", "tiny-n0-leaf0_DOWN", "tiny-n2-leaf1_UP", "tiny-n2-leaf1_DOWN",
                                  "tiny-leaf0-uplinks_UP", "tiny-leaf0-uplinks_DOWN", "tiny-leaf1-uplinks_UP",
                                  "tiny-leaf1-uplinks_DOWN"}));
  for (const CommLink& link : alone.links) {
    INFO(link.name);
    CHECK(link.flows == 1);
    CHECK(link.uplink == (link.name.find("uplinks") != std::string::npos));
    CHECK(link.up == link.name.ends_with("_UP"));
    const bool on_leaf_0 = link.name.find("leaf0") != std::string::npos;
    CHECK(link.leaf == (on_leaf_0 ? 0U : 1U));
  }
  // At 300 both rings share the uplinks in lock-step: 4e6 B/s each while they send, 6 s of a
  // 7.00023 s step, slowdown 1.74995.
  REQUIRE(seen.count(300) == 1);
  REQUIRE(seen.at(300).has_value());
  const JobCommunication& shared = *seen.at(300);
  CHECK(shared.rate_Bps == Approx(TINY_NIC_Bps / 2));
  CHECK(shared.alone_Bps == Approx(TINY_NIC_Bps));
  CHECK(shared.sending_s == Approx(6));
  CHECK(shared.step_s == Approx(step_s(2, TINY_NIC_Bps / 2)));
  CHECK(shared.slowdown == Approx(slowdown_at(2, TINY_NIC_Bps / 2)));
  CHECK(shared.mean_Bps() == Approx(24e6 / shared.step_s));
}
