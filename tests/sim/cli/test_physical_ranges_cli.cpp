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

TEST_CASE("physical ranges: platforms and campaigns beyond what this machine can hold are refused by validate")
{
  // The platform's memory grows with nodes and flow endpoints: 100,000 nodes of 8 NICs hashing 16
  // flows each (128 endpoints a node) are about 28 GB; the same pod with pooled routing, 1 GB.
  const std::string pod = "'cluster={preset: kalos, nodes: 100000, compute_nics: 8, "
                          "fabric: {leaf_radix: 4096, spine_radix: 4096, routing: ";
  const auto hashed = run_acmesim("validate configs/default-scenario.yaml --set " + pod + "ecmp, flows_per_nic: 16}}'");
  CHECK(hashed.exit_code == 2);
  CHECK_THAT(hashed.err, Catch::Contains("platform would need about 28 GB") && Catch::Contains("at most 16 GB"));
  const auto pooled = run_acmesim("validate configs/default-scenario.yaml --set " + pod + "pooled}}'");
  CHECK(pooled.exit_code == 0);
  CHECK_THAT(pooled.err, !Catch::Contains("platform would need"));
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
  // A million Kalos nodes hashing their flows: about 30 GB of platform, reported at the cluster.
  const auto o = run_acmesim("validate configs/default-scenario.yaml --set cluster.nodes=1000000 "
                             "--set cluster.fabric.routing=ecmp");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("default-scenario.yaml:9:3 (with --set cluster.nodes=1000000, --set "
                                    "cluster.fabric.routing=ecmp): key 'cluster', value '<map>': its platform would "
                                    "need about 30 GB"));
}
