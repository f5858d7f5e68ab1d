// The acmesim command line, run as a user would run it: exit codes, messages, result files.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {
using Outcome = acmesim::testing::CliOutcome;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::run_acmesim;
fs::path write_file(const std::string& name, const std::string& text)
{
  return acmesim::testing::write_scratch_file(name, text);
}
} // namespace

TEST_CASE("cli: --version, --help and an unknown command")
{
  const Outcome v = run_acmesim("--version");
  CHECK(v.exit_code == 0);
  CHECK(v.out.rfind("acmesim ", 0) == 0);
  const Outcome h = run_acmesim("--help");
  CHECK(h.exit_code == 0);
  CHECK(h.out.find("acmesim run [SCENARIO.yaml]") != std::string::npos);
  const Outcome bad = run_acmesim("frobnicate");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(run_acmesim("run --no-such-flag").exit_code == 2);
}

TEST_CASE("cli: list names every preset, scheduler and placement policy")
{
  const Outcome o = run_acmesim("list");
  CHECK(o.exit_code == 0);
  for (const char* name : {"seren", "kalos", "acme", "fifo", "easy-backfill", "backfill_depth", "pack",
                           "spread", "random"})
    CHECK(o.out.find(name) != std::string::npos);
}

TEST_CASE("cli: list keys prints every scenario key with its type, unit, range, default and help")
{
  const Outcome o = run_acmesim("list keys");
  CHECK(o.exit_code == 0);
  for (const char* text : {"cluster.fabric.leaf_radix (integer, ports): between 2 and 4096; default: 40\n      ports per",
                           "cluster.pods.<i>.nodes (integer, nodes)", "scheduler.backfill_depth (integer)",
                           "failures.components.<component>.tbf.dist (name): exponential, weibull",
                           "workload.synthetic.types.<type>.arrivals_per_hour", "datasets.<i>.metric_s"})
    CHECK(o.out.find(text) != std::string::npos);
  const Outcome markdown = run_acmesim("list keys --markdown");
  CHECK(markdown.exit_code == 0);
  CHECK(markdown.out.rfind("# Scenario keys\n", 0) == 0);
  CHECK(run_acmesim("list").out.find("acmesim list keys") != std::string::npos);
  const Outcome bad = run_acmesim("list key");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("keys [--markdown]") != std::string::npos);
}

TEST_CASE("cli: run on the embedded default writes results, byte-identical for the same seed")
{
  const fs::path a = scratch() / "a", b = scratch() / "b", c = scratch() / "c";
  const Outcome first = run_acmesim("run --quiet --out '" + a.string() + "'");
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("makespan") != std::string::npos);
  CHECK(first.err.empty());
  REQUIRE(run_acmesim("run --quiet --out '" + b.string() + "'").exit_code == 0);
  REQUIRE(run_acmesim("run --quiet --seed 7 --out '" + c.string() + "'").exit_code == 0);
  CHECK(slurp(a / "jobs.csv") == slurp(b / "jobs.csv"));
  CHECK(slurp(a / "summary.json") == slurp(b / "summary.json"));
  CHECK(slurp(a / "jobs.csv") != slurp(c / "jobs.csv"));
  CHECK(slurp(c / "summary.json").find("\"seed\": 7") != std::string::npos);
}

TEST_CASE("cli: bad input exits 2 with every error and simulates nothing")
{
  const fs::path scenario = write_file("bad.yaml", "seed: -3\ncluster:\n  preset: kalos\n  nodez: 4\n"
                                                   "workload:\n  trace: missing.csv\nscheduler:\n  name: fifo\n");
  const fs::path out = scratch() / "bad-out";
  const Outcome o = run_acmesim("run '" + scenario.string() + "' --out '" + out.string() + "'");
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("bad.yaml:1") != std::string::npos);
  CHECK(o.err.find("cluster.nodez") != std::string::npos);
  CHECK(o.err.find("missing.csv") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  const Outcome v = run_acmesim("validate '" + scenario.string() + "'");
  CHECK(v.exit_code == 2);
  CHECK(run_acmesim("run --quiet --set scheduler.name=nope --out '" + out.string() + "'").exit_code == 2);
  CHECK_FALSE(fs::exists(out));
  // A results path that cannot be a directory is refused before simulating.
  const fs::path file = write_file("not-a-dir", "x");
  const Outcome o2 = run_acmesim("run --quiet --out '" + file.string() + "'");
  CHECK(o2.exit_code == 2);
  CHECK(o2.err.find("--out") != std::string::npos);
  CHECK(o2.err.find("not a directory") != std::string::npos);
}

TEST_CASE("cli: a trace with a bad row is refused, or replayed with on_bad_row=skip")
{
  write_file("t.csv", "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                      "queue,gpu_time\n"
                      "a,u1,1,8,128,Pretrain,COMPLETED,2023-03-01 00:00:00+08:00,2023-03-01 00:00:01+08:00,"
                      "2023-03-01 01:00:01+08:00,3600,1,28800\n"
                      "b,u2,1,1,16,Eval,BROKEN,2023-03-01 00:00:05+08:00,2023-03-01 00:00:06+08:00,"
                      "2023-03-01 00:01:06+08:00,60,1,60\n");
  const fs::path scenario =
      write_file("trace.yaml", "cluster: {nodes: 2, gpus_per_node: 8}\nworkload: {trace: t.csv}\n");
  const fs::path out = scratch() / "trace-out";
  const Outcome refused = run_acmesim("run --quiet '" + scenario.string() + "' --out '" + out.string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("t.csv:3") != std::string::npos);
  CHECK(refused.err.find("BROKEN") != std::string::npos);
  const Outcome skipped =
      run_acmesim("run --quiet '" + scenario.string() + "' --set workload.on_bad_row=skip --out '" + out.string() + "'");
  REQUIRE(skipped.exit_code == 0);
  const std::string summary = slurp(out / "summary.json");
  CHECK(summary.find("\"skipped_rows\": 1") != std::string::npos);
  CHECK(summary.find("\"makespan_s\": 3600.0") != std::string::npos);
}

// Running them is the golden tests' part (tests/golden/golden.sh): each must reproduce its
// checked-in results, with nothing on stderr.
TEST_CASE("cli: every scenario in scenarios/ validates")
{
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(ACMESIM_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() != ".yaml")
      continue;
    ++count;
    INFO(entry.path().string());
    const Outcome v = run_acmesim("validate '" + entry.path().string() + "'");
    CHECK(v.exit_code == 0);
    CHECK(v.err.empty());
  }
  CHECK(count >= 1);
}

TEST_CASE("cli: --timeline writes timeline.json for Perfetto, and a run without it removes an old one")
{
  const auto out = acmesim::testing::scratch() / "timeline";
  auto o = run_acmesim("run scenarios/swf-replay.yaml --timeline --quiet --out '" + out.string() + "'");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  CHECK_THAT(o.out, Catch::Contains("utilisation.csv, timeline.json"));
  const auto timeline = nlohmann::json::parse(slurp(out / "timeline.json"));
  std::size_t jobs = 0;
  for (const auto& e : timeline.at("traceEvents"))
    jobs += e.at("ph") == "X" && e.contains("cat") && e.at("cat") != "node" ? 1 : 0;
  CHECK(jobs > 0);
  CHECK(acmesim::testing::slurp(out / "utilisation.csv").rfind("start_s,end_s,idle,busy,", 0) == 0);
  o = run_acmesim("run scenarios/swf-replay.yaml --quiet --out '" + out.string() + "'");
  REQUIRE(o.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(out / "timeline.json"));
}
