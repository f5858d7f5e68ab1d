// `acmesim compare`: both sides run on the same seeds in their own processes, the report pairs
// them seed by seed, and bad input on either side stops everything before a run starts.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using Json = nlohmann::json;

namespace {

// One simulated day of the default scenario: a fraction of a second per run.
const std::string SHORT = " --set workload.synthetic.days=1 ";

Json compare_json(const std::string& dir)
{
  return Json::parse(slurp(scratch() / dir / "compare.json"));
}

const Json& metric(const Json& report, const std::string& name)
{
  for (const auto& m : report.at("metrics"))
    if (m.at("metric") == name)
      return m;
  FAIL("no metric " << name);
  static const Json none;
  return none;
}

// job_id, submit_s and gpus of every row: the workload a run saw.
std::string workload_columns(const std::string& jobs_csv)
{
  std::istringstream in(jobs_csv);
  std::string line, out;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string field;
    for (int column = 0; std::getline(row, field, ','); ++column)
      if (column == 0 || column == 3 || column == 6)
        out += field + ' ';
    out += '\n';
  }
  return out;
}

} // namespace

TEST_CASE("compare: a scenario compared with itself shows zero difference and no verdict")
{
  // The default scenario's workload is drawn from the seed, so the runs differ from seed to seed
  // and only the pairing makes the difference zero.
  const std::string out = (scratch() / "self").string();
  const auto o = run_acmesim("compare" + SHORT + "--seeds 3 --jobs 2 --quiet --out '" + out + "' --vs" + SHORT);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const Json report = compare_json("self");
  std::set<double> makespans;
  for (const char* seed : {"seed-1", "seed-2", "seed-3"})
    makespans.insert(Json::parse(slurp(scratch() / "self" / "runs" / "a" / seed / "summary.json"))
                         .at("makespan_s")
                         .get<double>());
  CHECK(makespans.size() == 3);
  CHECK(report.at("seeds") == Json::array({1, 2, 3}));
  REQUIRE(report.at("metrics").size() >= 10);
  for (const auto& m : report.at("metrics")) {
    INFO(m.dump());
    CHECK(m.at("n") == 3);
    CHECK(m.at("diff_mean") == 0);
    CHECK(m.at("diff_ci_low") == 0);
    CHECK(m.at("diff_ci_high") == 0);
    CHECK(m.at("verdict").is_null());
  }
  CHECK(o.out.find("makespan_s") != std::string::npos);
  CHECK(o.out.find("B lower") == std::string::npos);
  CHECK(o.out.find("B higher") == std::string::npos);
}

TEST_CASE("compare: --vs gives B its own overrides and both sides see the same workload per seed")
{
  const std::string out = (scratch() / "vs").string();
  const auto o = run_acmesim("compare" + SHORT + "--set scheduler.name=fifo --seeds 3 --first-seed 5 --quiet --out '" +
                             out + "' --vs --set scheduler.name=easy-backfill");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const Json report = compare_json("vs");
  CHECK(report.at("a").at("set") == Json::array({"workload.synthetic.days=1", "scheduler.name=fifo"}));
  CHECK(report.at("b").at("set") == Json::array({"scheduler.name=easy-backfill"}));
  CHECK(report.at("seeds") == Json::array({5, 6, 7}));
  // B's scenario is A's file (here the embedded default) with only B's overrides: 3 days.
  double a_sum = 0;
  for (const int seed : {5, 6, 7}) {
    const auto a = scratch() / "vs" / "runs" / "a" / ("seed-" + std::to_string(seed));
    const auto b = scratch() / "vs" / "runs" / "b" / ("seed-" + std::to_string(seed));
    const Json sa = Json::parse(slurp(a / "summary.json"));
    const Json sb = Json::parse(slurp(b / "summary.json"));
    CHECK(sa.at("seed") == seed);
    CHECK(sb.at("seed") == seed);
    CHECK(sa.at("scenario").at("scheduler").at("name") == "fifo");
    CHECK(sb.at("scenario").at("scheduler").at("name") == "easy-backfill");
    a_sum += sa.at("makespan_s").get<double>();
  }
  CHECK(metric(report, "makespan_s").at("a_mean").get<double>() == Approx(a_sum / 3));
}

TEST_CASE("compare: two policies on one seed see identical jobs (common random numbers)")
{
  const std::string out = (scratch() / "crn").string();
  const auto o = run_acmesim("compare" + SHORT + "--seeds 2 --quiet --out '" + out +
                             "' --set scheduler.name=fifo --vs" + SHORT + "--set scheduler.name=easy-backfill");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  for (const char* seed : {"seed-1", "seed-2"}) {
    const auto a = slurp(scratch() / "crn" / "runs" / "a" / seed / "jobs.csv");
    const auto b = slurp(scratch() / "crn" / "runs" / "b" / seed / "jobs.csv");
    CHECK(workload_columns(a) == workload_columns(b));
    CHECK(a != b); // the policies did schedule differently
  }
  CHECK(workload_columns(slurp(scratch() / "crn" / "runs" / "a" / "seed-1" / "jobs.csv")) !=
        workload_columns(slurp(scratch() / "crn" / "runs" / "a" / "seed-2" / "jobs.csv")));
}

TEST_CASE("compare: quota against every baseline on acme-production, same jobs and same failures")
{
  // Two days of the scenario (both Acme clusters, failures, separate pods), one seed a side.
  const std::string days = " --set workload.synthetic.days=2 ";
  for (const std::string baseline : {"easy-backfill", "multifactor", "conservative-backfill", "las"}) {
    INFO(baseline);
    const std::string dir = "production-" + baseline;
    const auto o = run_acmesim("compare scenarios/acme-production.yaml" + days + "--seeds 1 --quiet --out '" +
                               (scratch() / dir).string() + "' --set scheduler.name=quota --vs" + days +
                               "--set scheduler.name=" + baseline);
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    const auto a = slurp(scratch() / dir / "runs" / "a" / "seed-1" / "jobs.csv");
    const auto b = slurp(scratch() / dir / "runs" / "b" / "seed-1" / "jobs.csv");
    CHECK(workload_columns(a) == workload_columns(b));
    CHECK(slurp(scratch() / dir / "runs" / "a" / "seed-1" / "failures.csv").size() > 100);
    CHECK(compare_json(dir).at("metrics").size() > 10);
  }
}

TEST_CASE("compare: bad input on either side exits 2 before any run")
{
  const std::string out = (scratch() / "bad").string();
  auto o = run_acmesim("compare" + SHORT + "--seeds 2 --out '" + out + "' --vs --set scheduler.name=nosuch");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("scheduler.name") && Catch::Contains("nosuch"));
  CHECK_FALSE(std::filesystem::exists(scratch() / "bad" / "runs"));
  o = run_acmesim("compare scenarios/swf-replay.yaml --seeds 2");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("two scenarios"));
  o = run_acmesim("compare scenarios/swf-replay.yaml scenarios/swf-replay.yaml --seeds 0");
  CHECK(o.exit_code == 2);
  o = run_acmesim("compare scenarios/swf-replay.yaml scenarios/swf-replay.yaml --jobs -1");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("--jobs must be a whole number"));
  o = run_acmesim("compare scenarios/swf-replay.yaml scenarios/swf-replay.yaml --first-seed 18446744073709551615");
  CHECK(o.exit_code == 2); // the ten seeds from there would wrap around
  o = run_acmesim("compare scenarios/swf-replay.yaml --vs --set seed=3");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("--seeds and --first-seed"));
  o = run_acmesim("compare scenarios/swf-replay.yaml scenarios/nonexistent.yaml");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("nonexistent.yaml"));
}
