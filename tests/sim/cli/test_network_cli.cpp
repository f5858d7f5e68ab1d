// The network model from the command line: what the run's echo says of the reference fabric.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>

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

TEST_CASE("network cli: acmesim collective prints nccl-tests' columns for every size, with the pod's NICs, and refuses "
          "bad input")
{
  // 3 Kalos nodes, as nccl-tests issue #119 ran them: 33,554,440 bytes measured 87.75 GB/s of bus
  // bandwidth; 32 MiB is 8 bytes less.
  const auto o = run_acmesim("collective --preset kalos --nodes 3 --op allreduce --sizes 32M:32M --json");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto out = nlohmann::json::parse(o.out);
  CHECK(out.at("gpus") == 24);
  REQUIRE(out.at("rows").size() == 1);
  const auto& row = out.at("rows").at(0);
  CHECK(row.at("size_bytes") == 33554432);
  CHECK(row.at("busbw_GBps").get<double>() == Approx(87.75).epsilon(0.10));
  CHECK(row.at("busbw_GBps").get<double>() == Approx(row.at("algbw_GBps").get<double>() * 2 * 23 / 24));

  // The table: a header and one row per size, doubling from 1M to 8G (14 sizes).
  const auto table = run_acmesim("collective --preset kalos --nodes 2 --op alltoall");
  REQUIRE(table.exit_code == 0);
  std::istringstream lines(table.out);
  int rows = 0;
  for (std::string line; std::getline(lines, line);)
    rows += !line.empty() && line.front() != '#';
  CHECK(rows == 14);

  // One NIC a node instead of four: the all-to-all's bus bandwidth falls to a quarter at 1 GiB.
  const auto busbw = [](const std::string& extra) {
    const auto r = run_acmesim("collective --preset kalos --nodes 2 --op alltoall --sizes 1G:1G --json" + extra);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out).at("rows").at(0).at("busbw_GBps").get<double>();
  };
  CHECK(busbw(" --set cluster.compute_nics=1") == Approx(busbw("") / 4).epsilon(0.01));

  for (const std::string bad : {"--preset kalos --nodes 2 --op broadcast", "--preset acme --nodes 2 --op allreduce",
                                "--preset kalos --nodes 400 --op allreduce", "--preset kalos --nodes 2 --op allreduce "
                                                                            "--sizes 8G:1M",
                                "--preset nowhere --nodes 2 --op allreduce", "--nodes 2 --op allreduce"}) {
    INFO(bad);
    const auto r = run_acmesim("collective " + bad);
    CHECK(r.exit_code == 2);
    CHECK_FALSE(r.err.empty());
  }
}

TEST_CASE("network cli: acmesim collective --measured fits the model to a file's fit rows and reports every row's gap")
{
  const std::string published = std::string(ACMESIM_SOURCE_DIR) + "/configs/collectives/a100-hdr-published.csv";
  const auto o =
      run_acmesim("collective --preset kalos --nodes 2 --op allreduce --sizes 1G:1G --json --measured '" + published + "'");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto out = nlohmann::json::parse(o.out);
  CHECK(out.at("calibration").at("network_efficiency").get<double>() == Approx(0.973).epsilon(0.005));
  REQUIRE(out.at("measured").size() == 18);
  for (const auto& m : out.at("measured")) {
    INFO(m.dump());
    CHECK(m.at("model_busbw_GBps").get<double>() ==
          Approx(m.at("busbw_GBps").get<double>()).epsilon(m.at("role") == "fit" ? 0.01 : 0.10));
  }

  // Measurements of a slower cluster move the model: every ring across nodes at half the NICs' rate.
  const auto slow = write_scratch_file("slow.csv", "op,nodes,gpus_per_node,nics,nic_Gbps,nvlink_GBps,bytes,busbw_GBps,"
                                                   "role,source\n"
                                                   "allreduce,2,8,4,200,300,1073741824,48,fit,made up\n");
  const auto fitted = run_acmesim("collective --preset kalos --nodes 2 --op allreduce --sizes 1G:1G --json --measured '" +
                                  slow.string() + "'");
  REQUIRE(fitted.exit_code == 0);
  CHECK(nlohmann::json::parse(fitted.out).at("rows").at(0).at("busbw_GBps").get<double>() == Approx(48).epsilon(0.001));

  const auto bad = write_scratch_file("bad.csv", "op,nodes\nallreduce,2\n");
  const auto refused = run_acmesim("collective --preset kalos --nodes 2 --op allreduce --measured '" + bad.string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("missing column") != std::string::npos);
}

TEST_CASE("network cli: network.collectives fits the collective model to a file for runs and for acmesim collective, "
          "and a bad file is bad input naming its line")
{
  // Measurements of a slower cluster: a ring across 2 Kalos-like nodes at 48 GB/s of bus bandwidth,
  // about half of what the published points give (97.3%): the fitted network efficiency is 0.48.
  const auto slow = write_scratch_file("slow.csv", "op,nodes,gpus_per_node,nics,nic_Gbps,nvlink_GBps,bytes,busbw_GBps,"
                                                   "role,source\n"
                                                   "allreduce,2,8,4,200,300,1073741824,48,fit,made up\n");
  const auto table = run_acmesim("collective --preset kalos --nodes 2 --op allreduce --sizes 1G:1G --json --set "
                                 "network.collectives='" + slow.string() + "'");
  INFO(table.err);
  REQUIRE(table.exit_code == 0);
  CHECK(nlohmann::json::parse(table.out).at("rows").at(0).at("busbw_GBps").get<double>() == Approx(48).epsilon(0.001));

  // Runs time their steps with it. A day of calibrated Kalos on eight nodes of one NIC, timed on
  // four, as mixtures of experts (EP 8): their all-to-alls wait on the NIC. With rings at about
  // half the efficiency, every all-to-all takes twice as long on both fabrics, so what one NIC
  // adds to a step, booked as communication, grows: not to twice (1.47 times at this seed), since
  // where the MFU step cannot hold the slower all-to-alls compute takes its ceiling and the
  // reference step itself is longer (docs/network.md, "Compute is compute's"). Bypassing the file
  // would give the same hours.
  const auto scenario = write_scratch_file("kalos-small.yaml", "cluster: {preset: kalos, nodes: 8}\n"
                                                               "workload:\n  synthetic: {preset: kalos, days: 1}\n");
  const auto run_with = [&](const std::string& name, const std::string& sets) {
    const auto out = scratch() / name;
    const auto o = run_acmesim("run '" + scenario.string() +
                               "' --quiet --set cluster.compute_nics=1 --set network.expert_parallel=8" + sets +
                               " --out '" + out.string() + "'");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    return nlohmann::json::parse(slurp(out / "summary.json"));
  };
  const auto published = run_with("published", "");
  const auto measured = run_with("measured", " --set network.collectives='" + slow.string() + "'");
  CHECK_FALSE(published.at("scenario").at("network").contains("collectives"));
  CHECK(measured.at("scenario").at("network").at("collectives") == slow.string());
  const double published_hours = published.at("network").at("communication_gpu_hours").get<double>();
  const double measured_hours = measured.at("network").at("communication_gpu_hours").get<double>();
  CHECK(published_hours > 10);
  CHECK(measured_hours > 1.25 * published_hours);

  const auto bad = write_scratch_file("bad.csv", "op,nodes,gpus_per_node,nics,nic_Gbps,nvlink_GBps,bytes,busbw_GBps,"
                                                 "role,source\n"
                                                 "allreduce,2,8,4,200,300,1073741824,fast,fit,typo\n");
  const auto refused = run_acmesim("run '" + scenario.string() + "' --quiet --set network.collectives='" +
                                   bad.string() + "' --out '" + (scratch() / "bad").string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find(bad.string() + ":2") != std::string::npos);
  CHECK(refused.err.find("fast") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch() / "bad"));
  const auto missing = run_acmesim("run '" + scenario.string() + "' --quiet --set network.collectives=nowhere.csv --out '" +
                                   (scratch() / "missing").string() + "'");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("network.collectives") != std::string::npos);
}
