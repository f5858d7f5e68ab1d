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

TEST_CASE("network cli: --set network.phases reaches the run and its echo, and a phase that does not exist is bad input")
{
  // Three days of the network what-if, spread over 4:1 leaves with nothing hidden, so that rings
  // cross shared uplinks: in lock-step their bursts meet (about 62 GPU-hours of communication),
  // interleaved they never do.
  const std::string scenario = std::string(ACMESIM_SOURCE_DIR) + "/scenarios/network-what-if.yaml";
  const std::string what_if = " --set workload.synthetic.days=3 --set scheduler.placement=spread"
                              " --set cluster.fabric.oversubscription=4 --set network.dp_overlap=0";
  const auto run_with = [&](const std::string& phases) {
    const auto out = scratch() / phases;
    const auto o = run_acmesim("run '" + scenario + "' --quiet" + what_if + " --set network.phases=" + phases +
                               " --out '" + out.string() + "'");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    return nlohmann::json::parse(slurp(out / "summary.json"));
  };
  const auto aligned = run_with("aligned");
  const auto interleaved = run_with("interleaved");
  CHECK(aligned.at("scenario").at("network").at("phases") == "aligned");
  CHECK(interleaved.at("scenario").at("network").at("phases") == "interleaved");
  CHECK(aligned.at("network").at("communication_gpu_hours").get<double>() > 10);
  CHECK(interleaved.at("network").at("communication_gpu_hours").get<double>() == 0);

  const auto bad = run_acmesim("run '" + scenario + "' --quiet --set network.phases=sideways --out '" +
                               (scratch() / "bad").string() + "'");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("network.phases") != std::string::npos);
}

TEST_CASE("network cli: experts on one NIC cost more than the dense model, and compute alone cannot be slower than MFU")
{
  // A day of calibrated Kalos on eight nodes with one NIC each, timed on its four. The dense jobs'
  // gradient rings still hide behind their compute (at most 64 GPUs: 24.5 GB a node a step, about
  // 1 s on one NIC, docs/network.md); the same jobs as mixtures of experts (EP 8) wait for their
  // all-to-alls, which a quarter of the bandwidth makes four times as long.
  const auto scenario = write_scratch_file("kalos-small.yaml", "cluster: {preset: kalos, nodes: 8}\n"
                                                               "workload:\n  synthetic: {preset: kalos, days: 1}\n");
  const auto communication = [&](const std::string& name, const std::string& sets) {
    const auto out = scratch() / name;
    const auto o = run_acmesim("run '" + scenario.string() + "' --quiet --set cluster.compute_nics=1" + sets +
                               " --out '" + out.string() + "'");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
    return summary.at("network").at("communication_gpu_hours").get<double>();
  };
  const double dense = communication("dense", "");
  const double experts = communication("experts", " --set network.expert_parallel=8");
  CHECK(dense == 0);
  CHECK(experts > 10);

  const auto bad = run_acmesim("run '" + scenario.string() + "' --quiet --set checkpoint.mfu=0.8 --out '" +
                               (scratch() / "bad").string() + "'");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("network.max_compute_mfu") != std::string::npos);
}

TEST_CASE("network cli: --set cluster.fabric.routing=ecmp reaches the run and its echo: hashed flows collide where "
          "pooled uplinks spread them, and a routing that does not exist is bad input")
{
  // Three days of the network what-if on Kalos's non-blocking fabric. Pooled, no ring ever waits
  // on an uplink; under ECMP, flows that hash onto one spine cable share it (about 100 GPU-hours
  // of communication at the scenario's seed).
  const std::string scenario = std::string(ACMESIM_SOURCE_DIR) + "/scenarios/network-what-if.yaml";
  const auto run_with = [&](const std::string& routing) {
    const auto out = scratch() / routing;
    const auto o = run_acmesim("run '" + scenario + "' --quiet --set workload.synthetic.days=3" +
                               " --set cluster.fabric.routing=" + routing + " --out '" + out.string() + "'");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    return nlohmann::json::parse(slurp(out / "summary.json"));
  };
  const auto pooled = run_with("pooled");
  const auto ecmp = run_with("ecmp");
  CHECK(ecmp.at("scenario").at("cluster").at("pods").at(0).at("fabric").at("routing") == "ecmp");
  CHECK(pooled.at("network").at("communication_gpu_hours").get<double>() == 0);
  CHECK(ecmp.at("network").at("communication_gpu_hours").get<double>() > 10);

  const auto bad = run_acmesim("run '" + scenario + "' --quiet --set cluster.fabric.routing=hashed --out '" +
                               (scratch() / "bad").string() + "'");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("cluster.fabric.routing") != std::string::npos);
}
