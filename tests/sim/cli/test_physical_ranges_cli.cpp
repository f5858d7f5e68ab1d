// Values that validate as numbers but no cluster could have are refused before anything runs
// (exit 2, naming the key): denormal bandwidths that used to abort SimGrid, a ratio that
// overflowed a conversion, a bin width that allocated until memory ran out.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

using acmesim::testing::run_acmesim;

TEST_CASE("physical ranges: hostile numbers are bad input, found by validate, naming the key")
{
  const std::string seren = "validate configs/default-scenario.yaml ";
  for (const std::string set : {"cluster.storage.bandwidth_GBps=1e-320", "cluster.nic_bandwidth_Gbps=4.9e-324",
                                "cluster.storage_nic_bandwidth_Gbps=4.9e-324", "cluster.fabric.oversubscription=1e308",
                                "output.utilisation_bin_s=1e-308", "cluster.nvlink_bandwidth_GBps=1e-300"}) {
    INFO(set);
    const auto o = run_acmesim(seren + "--set " + set);
    CHECK(o.exit_code == 2);
    CHECK_THAT(o.err, Catch::Contains(set.substr(0, set.find('='))) && Catch::Contains("expected"));
  }
}

TEST_CASE("physical ranges: bins of utilisation.csv too narrow for the workload's span are refused before the run")
{
  // A day of jobs in 1 ms bins: tens of millions of rows.
  const auto out = acmesim::testing::scratch() / "narrow-bins";
  const auto o = run_acmesim("run configs/default-scenario.yaml --quiet --out '" + out.string() +
                             "' --set output.utilisation_bin_s=0.001");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("output.utilisation_bin_s") && Catch::Contains("bins of at least"));
  // Refused before the run: no result file was written.
  CHECK_FALSE(std::filesystem::exists(out / "jobs.csv"));
  CHECK_FALSE(std::filesystem::exists(out / "summary.json"));
}

TEST_CASE("physical ranges: clusters and campaigns beyond what this machine can build are refused by validate")
{
  // Pods' routes grow with the square of their nodes: two pods of 6,000 are 72 million pairs.
  const auto pods = run_acmesim("validate configs/default-scenario.yaml --set "
                                "'cluster={pods: [{preset: kalos, nodes: 6000, fabric: {spine_radix: 4096}}, "
                                "{preset: seren, nodes: 6000, fabric: {spine_radix: 4096}}]}'");
  CHECK(pods.exit_code == 2);
  CHECK_THAT(pods.err, Catch::Contains("GB for their routes") && Catch::Contains("one pod of 8192 nodes"));
  std::string campaigns = "[0";
  for (int i = 1; i <= 10000; ++i)
    campaigns += "," + std::to_string(i);
  campaigns += "]";
  const auto many = run_acmesim("validate configs/default-scenario.yaml --set scheduler.name=eval-decoupled "
                                "--set 'evaluation={campaigns_s: " + campaigns + "}'");
  CHECK(many.exit_code == 2);
  CHECK_THAT(many.err, Catch::Contains("10001 campaigns is more than the 10000"));
}

TEST_CASE("physical ranges: a problem an override causes says so, though found on a line of the file")
{
  const auto o = run_acmesim("validate configs/default-scenario.yaml --set cluster.nodes=9000");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("default-scenario.yaml:9:3 (with --set cluster.nodes=9000)"));
}
