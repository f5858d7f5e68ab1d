// The network model from the command line: what the run's echo says of the reference fabric.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace acmesim::testing;

TEST_CASE("network cli: a --set on the cluster leaves the reference where it was, and the echo says so")
{
  // Eight Kalos nodes for a day of its calibrated workload, with one NIC a node instead of four.
  const auto scenario = write_scratch_file("kalos-small.yaml", "cluster: {preset: kalos, nodes: 8}\n"
                                                               "workload:\n  synthetic: {preset: kalos, days: 1}\n");
  const auto out = scratch() / "one-nic";
  const auto o = run_acmesim("run '" + scenario.string() + "' --quiet --set cluster.compute_nics=1 --out '" +
                             out.string() + "'");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  const auto& scenario_echo = summary.at("scenario");
  CHECK(scenario_echo.at("cluster").at("pods").at(0).at("compute_nics") == 1);
  const auto& reference = scenario_echo.at("network").at("reference").at("kalos");
  CHECK(reference.at("compute_nics") == 4);
  CHECK(reference.at("nic_bandwidth_Gbps") == 200);
  CHECK(reference.at("nvlink_bandwidth_GBps") == 300);
}
