// `acmesim sweep` on this machine: one process per point, one tidy results.csv, failed points
// reported without stopping the others, and --resume running exactly the unfinished points.
// (The Slurm backend is tested against a real Slurm by tests/slurm/test_slurm_sweep.sh.)
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;
namespace fs = std::filesystem;

namespace {

// Two policies (the second one given as `second`) x two seeds of one simulated day.
std::string sweep_file(const std::string& name, const std::string& second)
{
  return write_scratch_file(name, "set: {workload.synthetic.days: 1}\n"
                                  "grid:\n"
                                  "  scheduler.name: [fifo, " + second + "]\n"
                                  "seeds: 2\n")
      .string();
}

std::string sweep(const std::string& file, const std::string& out, const std::string& extra = "")
{
  return "sweep '" + file + "' --quiet --jobs 2 --out '" + (scratch() / out).string() + "' " + extra;
}

std::size_t count(const std::string& text, const std::string& what)
{
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("sweep: every point lands in one tidy results.csv with the run's own figures")
{
  const auto o = run_acmesim(sweep(sweep_file("ok.yaml", "easy-backfill"), "ok"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const std::string results = slurp(scratch() / "ok" / "results.csv");
  CHECK(results.rfind("point,scheduler.name,seed,metric,value\n", 0) == 0);
  CHECK(count(results, "\np0003,easy-backfill,2,makespan_s,") == 1);
  CHECK(count(results, ",makespan_s,") == 4);
  // The value is the point's summary.json figure, written exactly.
  const auto summary = nlohmann::json::parse(slurp(scratch() / "ok" / "points" / "p0001" / "summary.json"));
  CHECK(summary.at("seed") == 2);
  CHECK(summary.at("scenario").at("scheduler").at("name") == "fifo");
  const std::string row = "\np0001,fifo,2,makespan_s,";
  const auto at = results.find(row);
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(results.substr(at + row.size())) == summary.at("makespan_s").get<double>());
  CHECK(slurp(scratch() / "ok" / "points.csv") == "point,scheduler.name,seed,status,error\n"
                                                    "p0000,fifo,1,finished,\n"
                                                    "p0001,fifo,2,finished,\n"
                                                    "p0002,easy-backfill,1,finished,\n"
                                                    "p0003,easy-backfill,2,finished,\n");
}

TEST_CASE("sweep: a failing point is reported with its error and the others complete")
{
  const auto o = run_acmesim(sweep(sweep_file("failing.yaml", "no-such-policy"), "failing"));
  CHECK(o.exit_code == 1);
  CHECK_THAT(o.err, Catch::Contains("failed point p0002: exit code 2: error: --set scheduler.name=no-such-policy") &&
                        Catch::Contains("unknown scheduler") && Catch::Contains("failed point p0003"));
  CHECK_THAT(o.out, Catch::Contains("2 of 4 points finished"));
  const std::string points = slurp(scratch() / "failing" / "points.csv");
  CHECK(count(points, ",finished,\n") == 2);
  CHECK(count(points, ",failed,\"exit code 2: error: --set scheduler.name=no-such-policy") == 2);
  const std::string results = slurp(scratch() / "failing" / "results.csv");
  CHECK(count(results, ",makespan_s,") == 2);
  CHECK(count(results, "no-such-policy") == 0);
}

TEST_CASE("sweep: --resume skips exactly the finished points")
{
  // A first sweep with two failing points; the file is then corrected and the sweep resumed.
  const auto first = run_acmesim(sweep(sweep_file("resume.yaml", "no-such-policy"), "resume"));
  REQUIRE(first.exit_code == 1);
  const fs::path p0 = scratch() / "resume" / "points" / "p0000";
  write_scratch_file("resume/points/p0000/marker", "left alone"); // a resumed point's directory is not touched
  const auto finished_before = fs::last_write_time(p0 / "summary.json");
  const std::string file = sweep_file("resume.yaml", "easy-backfill");
  const auto resumed = run_acmesim(sweep(file, "resume", "--resume"));
  INFO(resumed.err);
  REQUIRE(resumed.exit_code == 0);
  CHECK_THAT(resumed.err, Catch::Contains("4 points, 2 to run, 2 already finished"));
  CHECK(fs::exists(p0 / "marker"));
  CHECK(fs::last_write_time(p0 / "summary.json") == finished_before);
  const auto redone = nlohmann::json::parse(slurp(scratch() / "resume" / "points" / "p0002" / "summary.json"));
  CHECK(redone.at("scenario").at("scheduler").at("name") == "easy-backfill");
  // Resuming gives the same results.csv as one uninterrupted sweep.
  REQUIRE(run_acmesim(sweep(file, "whole")).exit_code == 0);
  CHECK(slurp(scratch() / "resume" / "results.csv") == slurp(scratch() / "whole" / "results.csv"));
  // Resuming a finished sweep runs nothing; without --resume every point runs again.
  CHECK_THAT(run_acmesim(sweep(file, "resume", "--resume")).err, Catch::Contains("0 to run, 4 already finished"));
  CHECK_THAT(run_acmesim(sweep(file, "resume")).err, Catch::Contains("4 to run"));
}

TEST_CASE("sweep: bad sweep files and options exit 2 before any point runs")
{
  auto o = run_acmesim("sweep '" + write_scratch_file("bad.yaml", "grid: {scheduler.name: fifo}\n").string() + "'");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("bad.yaml:1:24") && Catch::Contains("grid.scheduler.name"));
  o = run_acmesim("sweep '" +
                  write_scratch_file("badset.yaml", "set: {cluster.nodes: -3}\nseeds: 2\n").string() + "' --out '" +
                  (scratch() / "badset").string() + "'");
  CHECK(o.exit_code == 2);
  // Told at its place in the sweep file, not as a --set the user never typed.
  CHECK_THAT(o.err, Catch::Contains("badset.yaml:1:7: key 'cluster.nodes', value '-3'") && !Catch::Contains("--set"));
  CHECK_FALSE(fs::exists(scratch() / "badset" / "points"));
  // A misspelt swept key loads with none of its values: refused before any point runs, at its
  // place. A bad value among good ones fails its own point only (checked by the run).
  o = run_acmesim("sweep '" +
                  write_scratch_file("badkey.yaml", "seeds: 2\ngrid:\n  cluster.nodez: [2, 4]\n").string() +
                  "' --out '" + (scratch() / "badkey").string() + "'");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("badkey.yaml:3:3: key 'cluster.nodez'") &&
                        Catch::Contains("no value of this swept key loads with the base scenario") &&
                        !Catch::Contains("--set"));
  CHECK_FALSE(fs::exists(scratch() / "badkey" / "points"));
  // Swept keys are checked together, point by point: a scheduler's parameter loads only with the
  // scheduler it belongs to, swept beside it.
  o = run_acmesim("sweep '" +
                  write_scratch_file("together.yaml", "set: {workload.synthetic.days: 0.2}\n"
                                                      "grid: {scheduler.name: [las], scheduler.queues: [2, 4]}\n")
                      .string() +
                  "' --out '" + (scratch() / "together").string() + "'");
  INFO(o.err);
  CHECK(o.exit_code == 0);
  CHECK(fs::exists(scratch() / "together" / "points.csv"));
  const std::string file = sweep_file("opts.yaml", "fifo");
  CHECK(run_acmesim("sweep '" + file + "' --backend cloud").exit_code == 2);
  CHECK(run_acmesim("sweep '" + file + "' --jobs 0").exit_code == 2);
  CHECK(run_acmesim("sweep '" + file + "' --jobs -1").exit_code == 2);
  CHECK(run_acmesim("sweep '" + file + "' --throttle x").exit_code == 2);
  CHECK(run_acmesim("sweep").exit_code == 2);
}

TEST_CASE("sweep: a base scenario whose path is not UTF-8 exits 2 before any point runs")
{
  // Each point's scenario path is recorded in point.json and read back to run it: a byte that is
  // not UTF-8 (\xE9, Latin-1) could only be dropped or replaced there, which would run another file.
  const fs::path dir = scratch() / "caf\xE9";
  fs::create_directories(dir);
  fs::copy_file(fs::path(ACMESIM_SOURCE_DIR) / "configs" / "default-scenario.yaml", dir / "base.yaml",
                fs::copy_options::overwrite_existing);
  const std::string file = write_scratch_file("caf\xE9/latin1.yaml", "scenario: base.yaml\n"
                                                                     "grid:\n"
                                                                     "  scheduler.name: [fifo]\n")
                               .string();
  const auto o = run_acmesim("sweep '" + file + "' --quiet --out '" + (scratch() / "latin1").string() + "'");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("latin1.yaml") && Catch::Contains("not UTF-8"));
  CHECK_FALSE(fs::exists(scratch() / "latin1" / "points" / "p0000" / "summary.json"));
}

TEST_CASE("sweep: the Slurm backend without Slurm's commands exits 2 saying so")
{
  const std::string file = sweep_file("noslurm.yaml", "fifo");
  const auto o = run_acmesim("sweep '" + file + "' --backend slurm --quiet --out '" + (scratch() / "noslurm").string() +
                             "'", "PATH=/nonexistent");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("cannot start 'sbatch'") && Catch::Contains("Slurm"));
}

TEST_CASE("sweep: progress goes to stderr only when it is a terminal")
{
  const std::string file = sweep_file("progress.yaml", "easy-backfill");
  const auto piped = run_acmesim("sweep '" + file + "' --jobs 1 --out '" + (scratch() / "piped").string() + "'");
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.find("done") == std::string::npos);
  // script(1) runs the sweep on a pseudo-terminal and copies what it printed to a file.
  const auto typescript = scratch() / "typescript.txt";
  const std::string inner = std::string("'") + ACMESIM_BINARY + "' sweep '" + file + "' --jobs 1 --out '" +
                            (scratch() / "tty").string() + "'";
  const std::string cmd = "script -qec \"" + inner + "\" '" + typescript.string() + "' >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string shown = slurp(typescript);
  CHECK_THAT(shown, Catch::Contains("sweep points: 4/4 done, 0 failed"));
  CHECK_THAT(shown, Catch::Contains("/s"));
}
