// A shipped scenario that advertises a contrast must show it: the two runs it names differ, the way
// its header says.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;

TEST_CASE("shipped contrast: kalos-fifo-vs-backfill waits far longer under FIFO than under EASY backfilling")
{
  const std::string scenario = std::string(ACMESIM_SOURCE_DIR) + "/scenarios/kalos-fifo-vs-backfill.yaml";
  const auto summary_of = [&](const std::string& scheduler) {
    const auto out = scratch() / scheduler;
    const auto o = run_acmesim("run '" + scenario + "' --quiet --set scheduler.name=" + scheduler + " --out '" +
                               out.string() + "'");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    return nlohmann::json::parse(slurp(out / "summary.json"));
  };
  const auto fifo = summary_of("fifo");
  const auto easy = summary_of("easy-backfill");
  // The same jobs on the same cluster, so the same work: only the waits differ.
  CHECK(fifo["jobs"]["gpu"] == easy["jobs"]["gpu"]);
  const double fifo_wait = fifo["wait_s"]["all"]["mean"].get<double>();
  const double easy_wait = easy["wait_s"]["all"]["mean"].get<double>();
  CHECK(fifo_wait > 10 * easy_wait);
  const double fifo_eval = fifo["wait_s"]["by_type"]["Eval"]["p95"].get<double>();
  const double easy_eval = easy["wait_s"]["by_type"]["Eval"]["p95"].get<double>();
  CHECK(fifo_eval > 10 * easy_eval);
}
