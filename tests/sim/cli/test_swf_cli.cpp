// A Parallel Workloads Archive log replayed as a user would: the cluster taken from its header
// when the scenario gives none, and jobs of unknown (-1) fields dropped and counted on request.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace swf_cli {

namespace fs = std::filesystem;

using acmesim::testing::CliOutcome;
using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One SWF job line: job number, submit, run time, allocated and requested processors, status.
std::string job(int number, const std::string& submit, const std::string& run, const std::string& allocated,
                const std::string& requested = "-1")
{
  return std::to_string(number) + " " + submit + " 0 " + run + " " + allocated + " -1 -1 " + requested +
         " -1 -1 1 1 1 -1 1 1 -1 -1\n";
}

// A cleaned log of 16 nodes of 4 processors: 3 whole jobs and 3 with an unknown field.
const std::string LOG = "; Version: 2.2\n"
                        "; Computer: Test SP2\n"
                        "; MaxNodes: 16\n"
                        "; MaxProcs: 64\n" +
                        job(1, "0", "100", "8") + job(2, "10", "-1", "4") + job(3, "-1", "50", "4") +
                        job(4, "20", "30", "-1") + job(5, "30", "200", "-1", "64") + job(6, "40", "60", "4");

fs::path scenario(const std::string& name, const std::string& trace, const std::string& extra = "")
{
  return write_scratch_file(name + ".yaml", "name: " + name + "\nworkload:\n  trace: " + trace + "\n" + extra);
}

nlohmann::json summary_of(const std::string& name)
{
  return nlohmann::json::parse(slurp(scratch() / name / "summary.json"));
}

TEST_CASE("an SWF replay without a cluster runs on the header's machine and drops unknown jobs on request")
{
  write_scratch_file("clean.swf", LOG);
  const fs::path s = scenario("pwa", "clean.swf", "  on_unknown: drop\n");
  const CliOutcome r = run_acmesim("run " + s.string() + " --out " + (scratch() / "pwa").string());
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.err, "3 SWF jobs of unknown fields dropped (workload.on_unknown=drop): submit time 1, run time 1, "
                   "size 1"));
  const nlohmann::json summary = summary_of("pwa");
  const nlohmann::json& pod = summary["scenario"]["cluster"]["pods"][0];
  CHECK(pod["name"] == "Test SP2");
  CHECK(pod["nodes"] == 16);
  CHECK(pod["gpus_per_node"] == 4);
  CHECK(summary["jobs"]["total"] == 3);
  CHECK(summary["jobs"]["dropped_unknown"] ==
        nlohmann::json::parse(R"({"jobs": 3, "submit_time": 1, "run_time": 1, "size": 1})"));

  // Without the filter a job of unknown run time is a bad row, named with its line.
  const CliOutcome strict = run_acmesim("validate " + scenario("strict", "clean.swf").string());
  CHECK(strict.exit_code == 2);
  CHECK(has(strict.err, "clean.swf:6"));
  CHECK(has(strict.err, "unknown (-1)"));

  const CliOutcome stats = run_acmesim("workload stats --json --on-unknown drop " + (scratch() / "clean.swf").string());
  REQUIRE(stats.exit_code == 0);
  CHECK(nlohmann::json::parse(stats.out)["dropped_unknown"] == 3);
  const CliOutcome text = run_acmesim("workload stats --on-unknown drop " + (scratch() / "clean.swf").string());
  REQUIRE(text.exit_code == 0);
  CHECK(has(text.out, "3 jobs of unknown submit time, run time or size dropped"));
  // Its waits (field 3) are 0 throughout: a row of statistics; a log of -1 waits says it has none.
  CHECK(has(text.out, "queueing delay"));
  CHECK_FALSE(has(text.out, "none recorded"));
  write_scratch_file("no-waits.swf", "; MaxProcs: 64\n"
                                     "1 0 -1 100 8 -1 -1 -1 -1 -1 1 1 1 -1 1 1 -1 -1\n"
                                     "2 5 -1 100 8 -1 -1 -1 -1 -1 1 1 1 -1 1 1 -1 -1\n");
  const CliOutcome none = run_acmesim("workload stats --on-unknown drop " + (scratch() / "no-waits.swf").string());
  REQUIRE(none.exit_code == 0);
  CHECK(has(none.out, "queueing delay: none recorded"));
}

TEST_CASE("an SWF header that cannot give the cluster, and on_unknown on another format, are exit 2")
{
  write_scratch_file("uneven.swf", "; MaxNodes: 16\n; MaxProcs: 66\n" + job(1, "0", "10", "4"));
  const CliOutcome uneven = run_acmesim("validate " + scenario("uneven", "uneven.swf").string());
  CHECK(uneven.exit_code == 2);
  CHECK(has(uneven.err, "uneven.swf:2"));
  CHECK(has(uneven.err, "not a multiple of MaxNodes (16)"));

  write_scratch_file("bare.swf", "; MaxNodes: 16\n" + job(1, "0", "10", "4"));
  const CliOutcome bare = run_acmesim("validate " + scenario("bare", "bare.swf").string());
  CHECK(bare.exit_code == 2);
  CHECK(has(bare.err, "gives no MaxProcs"));

  write_scratch_file("badcount.swf", "; MaxProcs: lots\n" + job(1, "0", "10", "4"));
  const CliOutcome badcount = run_acmesim("validate " + scenario("badcount", "badcount.swf").string());
  CHECK(badcount.exit_code == 2);
  CHECK(has(badcount.err, "badcount.swf:1"));
  CHECK(has(badcount.err, "positive whole number"));

  // A given cluster wins over the header, which is then not read.
  const CliOutcome given = run_acmesim(
      "validate " + scenario("given", "badcount.swf", "cluster: {nodes: 2, gpus_per_node: 4}\n").string());
  CHECK(given.exit_code == 0);

  // Other formats have no unknown marker, and still need a cluster.
  const fs::path acme = fs::path(ACMESIM_SOURCE_DIR) / "tests/data/traces/seren_small.csv";
  const CliOutcome other = run_acmesim(
      "validate " + scenario("other", acme.string(), "  on_unknown: drop\ncluster: {preset: seren}\n").string());
  CHECK(other.exit_code == 2);
  CHECK(has(other.err, "only SWF traces mark unknown fields"));
  const CliOutcome no_cluster = run_acmesim("validate " + scenario("nocluster", acme.string()).string());
  CHECK(no_cluster.exit_code == 2);
  CHECK(has(no_cluster.err, "key 'cluster': missing required key"));
  CHECK(run_acmesim("workload stats --on-unknown drop " + acme.string()).exit_code == 2);
}

TEST_CASE("a gzip log of the archive runs with two lines of YAML, on the machine its header names")
{
  // tests/data/traces/pwa_small.swf.gz is pwa_small.swf through `gzip -n -9`.
  const std::string log = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/pwa_small.swf";
  const CliOutcome packed = run_acmesim("run " + write_scratch_file("gz.yaml", "workload:\n  trace: " + log + ".gz\n")
                                                     .string() + " --quiet --out " + (scratch() / "gz").string());
  INFO(packed.err);
  REQUIRE(packed.exit_code == 0);
  const CliOutcome plain = run_acmesim("run " + write_scratch_file("plain.yaml", "workload:\n  trace: " + log + "\n")
                                                    .string() + " --quiet --out " + (scratch() / "plain").string());
  REQUIRE(plain.exit_code == 0);
  CHECK(slurp(scratch() / "gz" / "jobs.csv") == slurp(scratch() / "plain" / "jobs.csv"));
  CHECK(summary_of("gz")["scenario"]["cluster"]["pods"][0]["gpus_per_node"] ==
        summary_of("plain")["scenario"]["cluster"]["pods"][0]["gpus_per_node"]);
  CHECK(summary_of("gz")["jobs"]["total"] == 6);

  // A log compressed otherwise is refused in one line saying what to do.
  write_scratch_file("log.swf.bz2", "BZh91AY&SY\x01\x02");
  const CliOutcome bzip2 = run_acmesim("validate " + scenario("bz", "log.swf.bz2").string());
  CHECK(bzip2.exit_code == 2);
  CHECK(has(bzip2.err, "log.swf.bz2: is compressed with bzip2, which acmesim does not read"));
}

TEST_CASE("a log's own machine is a CPU machine, and what the log recorded sits beside what was simulated")
{
  const std::string log = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/pwa_small.swf";
  const CliOutcome own = run_acmesim("run " + scenario("own", log).string() + " --out " + (scratch() / "own").string());
  INFO(own.err);
  REQUIRE(own.exit_code == 0);
  CHECK(has(own.out, "128 CPUs (a CPU machine)"));
  CHECK(has(own.out, "CPU-hours"));
  CHECK_FALSE(has(own.out, "energy"));
  CHECK_FALSE(has(own.out, "GPU"));
  const nlohmann::json summary = summary_of("own");
  CHECK_FALSE(summary.contains("energy"));
  CHECK(summary["scenario"]["cluster"]["processors"] == "cpu");
  CHECK(slurp(scratch() / "own" / "utilisation.csv").find("it_power_kw") == std::string::npos);
  // Its jobs are not training jobs: no network model, and asking for one is an error.
  CHECK(summary["scenario"]["network"]["model"] == "off");
  const CliOutcome flows = run_acmesim("validate " + scenario("flows", log, "network: {model: flows}\n").string());
  CHECK(flows.exit_code == 2);
  CHECK(has(flows.err, "a CPU machine (cluster.processors: cpu) runs no training traffic"));
  // The log's requested times (field 9) are the estimates by default; job 4 records none.
  CHECK(summary["scenario"]["workload"]["estimates"] == "requested");
  CHECK(has(own.err, "estimates: the requested times of 5 jobs (0 ran longer than requested"));
  CHECK(has(own.err, "1 jobs record none and are estimated by their run time"));
  // jobs.csv: the recorded wait, requested time and processors, group, queue and partition.
  const std::string jobs = slurp(scratch() / "own" / "jobs.csv");
  const std::string header = jobs.substr(0, jobs.find('\n'));
  CHECK(has(header, ",ettr,recorded_wait_s,requested_s,requested_procs,group,queue,partition"));
  CHECK(has(jobs, ",10.000,7200.000,8,1,1,1\n"));  // job 1
  CHECK(has(jobs, ",0.000,,,2,1,1\n"));             // job 4: requested time and processors unknown

  // A cluster the scenario gives is a GPU cluster unless it says otherwise; estimates can be set.
  const CliOutcome given = run_acmesim(
      "run " + scenario("given", log, "  estimates: actual\ncluster: {nodes: 4, gpus_per_node: 32}\n").string() +
      " --quiet --out " + (scratch() / "given").string());
  REQUIRE(given.exit_code == 0);
  CHECK(summary_of("given")["energy"]["it_kwh"].is_number());
  CHECK(summary_of("given")["scenario"]["workload"]["estimates"] == "actual");
  const CliOutcome cpu = run_acmesim(
      "run " + scenario("cpu", log, "cluster: {nodes: 4, gpus_per_node: 32, processors: cpu}\n").string() +
      " --out " + (scratch() / "cpu").string());
  REQUIRE(cpu.exit_code == 0);
  CHECK(has(cpu.out, "128 CPUs (a CPU machine)"));
  CHECK_FALSE(summary_of("cpu").contains("energy"));
}

TEST_CASE("workload stats --recorded-vs-simulated sets a log's recorded waits beside the run's")
{
  const std::string log = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/pwa_small.swf";
  const fs::path out = scratch() / "rvs";
  REQUIRE(run_acmesim("run " + scenario("rvs", log).string() + " --quiet --out " + out.string()).exit_code == 0);
  const CliOutcome text = run_acmesim("workload stats --recorded-vs-simulated " + out.string());
  INFO(text.out + text.err);
  REQUIRE(text.exit_code == 0);
  // Waits 10, 5, 0, 0, 0 recorded (job 2 has none); 128 CPUs start every job at once.
  CHECK(has(text.out, "5 compared; 1 without a recorded wait, 0 never started in the run"));
  CHECK(has(text.out, "wait (s) mean"));
  CHECK(has(text.out, "3.0            0.0       0.00"));
  CHECK(has(text.out, "differ by at most 0.400 (at 0 s)"));
  const CliOutcome json = run_acmesim("workload stats --json --recorded-vs-simulated " + out.string());
  REQUIRE(json.exit_code == 0);
  CHECK(nlohmann::json::parse(json.out)["compared"]["wait_s"]["recorded"]["mean"] == 3.0);

  // A log without recorded waits says so; a directory that is not a run's, or a bad cell, is exit 2.
  write_scratch_file("no-waits.swf", "; MaxProcs: 64\n"
                                     "1 0 -1 100 8 -1 -1 -1 -1 -1 1 1 1 -1 1 1 -1 -1\n");
  const fs::path none = scratch() / "none";
  REQUIRE(run_acmesim("run " + scenario("none", "no-waits.swf").string() + " --quiet --out " + none.string())
              .exit_code == 0);
  const CliOutcome no_waits = run_acmesim("workload stats --recorded-vs-simulated " + none.string());
  CHECK(no_waits.exit_code == 0);
  CHECK(has(no_waits.out, "the log records no waits"));
  const CliOutcome not_dir = run_acmesim("workload stats --recorded-vs-simulated " + (scratch() / "nowhere").string());
  CHECK(not_dir.exit_code == 2);
  CHECK(has(not_dir.err, "not a directory"));
  fs::create_directories(scratch() / "broken");
  write_scratch_file("broken/jobs.csv", "job_id,gpus,wait_s,jct_s,recorded_wait_s\n\"a,b\",4,soon,10,2\n");
  const CliOutcome broken = run_acmesim("workload stats --recorded-vs-simulated " + (scratch() / "broken").string());
  CHECK(broken.exit_code == 2);
  CHECK(has(broken.err, "jobs.csv:2"));
  CHECK(has(broken.err, "wait_s"));
  CHECK(has(broken.err, "soon"));
  write_scratch_file("broken/jobs.csv", "job_id,wait_s\n1,2\n");
  const CliOutcome columns = run_acmesim("workload stats --recorded-vs-simulated " + (scratch() / "broken").string());
  CHECK(columns.exit_code == 2);
  CHECK(has(columns.err, "missing column"));
  CHECK(run_acmesim("workload stats " + log + " --recorded-vs-simulated " + out.string()).exit_code == 2);
}

} // namespace swf_cli
