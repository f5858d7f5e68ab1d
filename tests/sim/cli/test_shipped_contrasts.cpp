// A shipped scenario that advertises a contrast must show it: the two runs it names differ, the way
// its header says.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;

namespace {

// The summary.json of a shipped scenario run with `overrides` ("--set k=v ..."), into `out`.
nlohmann::json summary_of(const std::string& scenario, const std::string& overrides, const std::string& out)
{
  const auto dir = scratch() / out;
  const auto o = run_acmesim("run '" + std::string(ACMESIM_SOURCE_DIR) + "/scenarios/" + scenario + "' --quiet " +
                             overrides + " --out '" + dir.string() + "'");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  return nlohmann::json::parse(slurp(dir / "summary.json"));
}

} // namespace

TEST_CASE("shipped contrast: kalos-fifo-vs-backfill waits far longer under FIFO than under EASY backfilling")
{
  const auto fifo = summary_of("kalos-fifo-vs-backfill.yaml", "--set scheduler.name=fifo", "fifo");
  const auto easy = summary_of("kalos-fifo-vs-backfill.yaml", "--set scheduler.name=easy-backfill", "easy");
  // The same jobs on the same cluster, so the same work: only the waits differ.
  CHECK(fifo["jobs"]["gpu"] == easy["jobs"]["gpu"]);
  const double fifo_wait = fifo["wait_s"]["all"]["mean"].get<double>();
  const double easy_wait = easy["wait_s"]["all"]["mean"].get<double>();
  CHECK(fifo_wait > 10 * easy_wait);
  const double fifo_eval = fifo["wait_s"]["by_type"]["Eval"]["p95"].get<double>();
  const double easy_eval = easy["wait_s"]["by_type"]["Eval"]["p95"].get<double>();
  CHECK(fifo_eval > 10 * easy_eval);
}

TEST_CASE("shipped contrast: network-what-if slows training when NICs are taken away")
{
  // As written: Kalos' four NICs, the fabric the durations were measured on, so no slowdown.
  const auto four = summary_of("network-what-if.yaml", "", "nics-4");
  const auto one = summary_of("network-what-if.yaml", "--set cluster.compute_nics=1", "nics-1");
  CHECK(four["jobs"]["gpu"] == one["jobs"]["gpu"]);
  CHECK(four["lost_gpu_hours"]["communication"].get<double>() == 0);
  CHECK(four["network"]["slowdown"]["all"]["max"].get<double>() == 1);
  // One NIC of four: the rings of multi-node jobs get a quarter of the bandwidth.
  CHECK(one["lost_gpu_hours"]["communication"].get<double>() > 1000);
  CHECK(one["network"]["slowdown"]["all"]["max"].get<double>() > 1.1);
}

TEST_CASE("shipped contrast: acme-fault-tolerance loses far less under Acme's automatic recovery")
{
  // As written: manual recovery and synchronous checkpoints, the baseline Acme started from.
  const auto manual = summary_of("acme-fault-tolerance.yaml", "", "manual");
  const auto automatic = summary_of("acme-fault-tolerance.yaml",
                                    "--set recovery.name=auto --set checkpoint.mode=async", "auto");
  // The same failures are drawn for both (per component from the seed); automatic recovery takes
  // lemon nodes out, and the failures they would have had are avoided.
  const auto drawn = [](const nlohmann::json& s) {
    return s["failures"]["applied"].get<int>() + s["failures"]["lemon_failures_avoided"].get<int>();
  };
  CHECK(drawn(manual) == drawn(automatic));
  CHECK(manual["lost_gpu_hours"]["waiting_for_person"].get<double>() > 10000);
  CHECK(automatic["lost_gpu_hours"]["waiting_for_person"].get<double>() == 0);
  CHECK(automatic["lost_gpu_hours"]["checkpoint"].get<double>() <
        0.5 * manual["lost_gpu_hours"]["checkpoint"].get<double>());
  CHECK(automatic["lost_gpu_hours"]["total"].get<double>() < 0.5 * manual["lost_gpu_hours"]["total"].get<double>());
}
