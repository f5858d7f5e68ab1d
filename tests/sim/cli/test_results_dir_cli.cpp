// A results directory holds one run's whole result set or none: a directory another process
// writes into is refused, a run removes an earlier run's files before it starts (so one that fails
// leaves none behind), a run never writes over a file it reads, and a file that cannot be written
// ends the run with the reason and no result set.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;
namespace fs = std::filesystem;

namespace {

// Two nodes of 8 GPUs; the test plugin schedules first come first served (mode 0) or throws at
// 100 s (mode 1), after the first jobs started.
std::string scenario(int mode)
{
  write_scratch_file("dir_trace.csv", "job_id,user,gpu_num,type,state,submit_time,duration\n"
                                      "a,u,16,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,100\n"
                                      "b,u,8,SFT,COMPLETED,2023-03-01 00:00:10+00:00,50\n");
  return write_scratch_file("dir-" + std::to_string(mode) + ".yaml",
                            "cluster: {nodes: 2, gpus_per_node: 8, fabric: {nodes_per_leaf: 2}}\n"
                            "workload: {trace: dir_trace.csv}\n"
                            "network: {model: off}\n"
                            "scheduler: {plugin: " + std::string(test_scheduler_plugin_PATH) +
                                ", params: {mode: " + std::to_string(mode) + "}}\n")
      .string();
}

std::string run_args(const std::string& scenario_file, const fs::path& out)
{
  return "run '" + scenario_file + "' --quiet --out '" + out.string() + "'";
}

bool has_partial(const fs::path& dir)
{
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".partial")
      return true;
  return false;
}

} // namespace

TEST_CASE("results dir: a directory another process is writing into is refused, exit 2, and left alone")
{
  const fs::path out = scratch() / "held";
  REQUIRE(run_acmesim(run_args(scenario(0), out)).exit_code == 0);
  const std::string before = slurp(out / "summary.json");
  // This test process holds the directory as a run would.
  const int fd = ::open((out / ".acmesim.lock").c_str(), O_RDWR | O_CREAT, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  const auto refused = run_acmesim(run_args(scenario(0), out));
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--out") && Catch::Contains("another acmesim process") &&
                              Catch::Contains("choose another --out"));
  CHECK(slurp(out / "summary.json") == before);
  // Sweeps, plans and comparisons hold their directory the same way.
  const std::string sweep = write_scratch_file("held-sweep.yaml", "scenario: dir-0.yaml\nseeds: 2\n").string();
  const auto sweep_refused = run_acmesim("sweep '" + sweep + "' --quiet --out '" + out.string() + "'");
  CHECK(sweep_refused.exit_code == 2);
  CHECK_THAT(sweep_refused.err, Catch::Contains("another acmesim process"));
  ::close(fd); // released: the next run may write
  CHECK(run_acmesim(run_args(scenario(0), out)).exit_code == 0);
}

TEST_CASE("results dir: a run that fails leaves none of an earlier run's results behind")
{
  const fs::path out = scratch() / "stale";
  REQUIRE(run_acmesim(run_args(scenario(0), out)).exit_code == 0);
  REQUIRE(fs::exists(out / "summary.json"));
  write_scratch_file("stale/jobs.csv.partial", "a killed run's leftover");
  const auto failed = run_acmesim(run_args(scenario(1), out));
  CHECK(failed.exit_code == 1);
  for (const char* name : {"summary.json", "jobs.csv", "utilisation.csv", "jobs.csv.partial"}) {
    INFO(name);
    CHECK_FALSE(fs::exists(out / name));
  }
}

TEST_CASE("results dir: a run never writes over a file it reads, such as its own failures.csv replayed")
{
  const fs::path out = scratch() / "replay";
  const std::string day = "cluster: {preset: seren}\nworkload: {synthetic: {preset: seren, days: 1}}\n";
  const std::string model = write_scratch_file("replay-model.yaml", day + "failures: {model: acme}\n").string();
  REQUIRE(run_acmesim("run '" + model + "' --quiet --out '" + out.string() + "'").exit_code == 0);
  const std::string failures = slurp(out / "failures.csv");
  REQUIRE_FALSE(failures.empty());
  const std::string list = "failures: {recorded: replay/failures.csv}\nrecovery: {name: auto}\n";
  const std::string replay = write_scratch_file("replay-list.yaml", day + list).string();
  const auto refused = run_acmesim("run '" + replay + "' --quiet --out '" + out.string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("failures.recorded") && Catch::Contains("failures.csv over this file"));
  CHECK(slurp(out / "failures.csv") == failures);
  // Into another directory the replay runs.
  CHECK(run_acmesim("run '" + replay + "' --quiet --out '" + (scratch() / "replayed").string() + "'").exit_code == 0);
}

TEST_CASE("results dir: a file-size limit ends the run with the reason, exit 1, and no result set")
{
  const fs::path out = scratch() / "limited";
  fs::create_directories(out);
  const std::string big =
      write_scratch_file("limited.yaml", "cluster: {preset: seren}\nworkload: {synthetic: {preset: seren, days: 2}}\n")
          .string();
  // 64 KiB: jobs.csv of two days of Seren is larger.
  const auto o = run_acmesim("run '" + big + "' --quiet --out '" + out.string() + "'", "ulimit -f 64;");
  CHECK(o.exit_code == 1);
  CHECK_THAT(o.err, Catch::Contains("cannot write") && Catch::Contains("File too large") &&
                        Catch::Contains("no results were left"));
  CHECK_FALSE(fs::exists(out / "summary.json"));
  CHECK_FALSE(fs::exists(out / "jobs.csv"));
  CHECK_FALSE(has_partial(out));
}
