// `acmesim workload ...` run as a user would run it.
//
// ---- workload stats ---------------------------------------------------------------------------
// Helpers live in a namespace of their own, since test_cli.cpp links into the same binary.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace workload_stats_cli {

namespace fs = std::filesystem;

using Run = acmesim::testing::CliOutcome;
using acmesim::testing::scratch;
inline Run run(const std::string& args) { return acmesim::testing::run_acmesim(args); }
inline fs::path write(const std::string& name, const std::string& text)
{
  return acmesim::testing::write_scratch_file(name, text);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr const char* FIXTURE = "tests/data/traces/seren_small.csv";
constexpr const char* ACME_HEADER =
    "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n";


TEST_CASE("workload stats: the text report of an Acme trace has the type table")
{
  const Run r = run(std::string("workload stats ") + FIXTURE);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(has(r.out, "6 jobs"));
  CHECK(has(r.out, "5 GPU jobs; 1 CPU-only jobs"));
  CHECK(has(r.out, "GPU jobs by type"));
  CHECK(has(r.out, "  Pretrain     1   20.00       28.57"));
  CHECK(has(r.out, "final state by type, % of GPU time"));
  CHECK(has(r.out, "GPUs per job, CDF"));
  CHECK(has(r.out, "duration CDF"));
  CHECK_FALSE(has(r.out, "Acme"));
  CHECK_FALSE(has(r.out, "nan"));
}

TEST_CASE("workload stats: --json is one JSON document with the expected fields")
{
  const Run r = run(std::string("workload stats --json ") + FIXTURE);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["format"] == "acme");
  CHECK(j["jobs"] == 6);
  CHECK(j["gpu_jobs"] == 5);
  CHECK(j["cpu_jobs"] == 1);
  CHECK(j["types"].size() == 6);
  CHECK(j["types"]["Pretrain"]["jobs"] == 1);
  CHECK(j["types"]["Pretrain"]["share_of_jobs_percent"].get<double>() == Approx(20));
  CHECK(j["types"]["Pretrain"]["share_of_gpu_time_percent"].get<double>() == Approx(100.0 * 57600 / 201600));
  CHECK(j["types"]["Other"]["gpus"]["p50"].is_null()); // no Other GPU jobs: undefined, not 0 or NaN
  CHECK(j["all_gpu_jobs"]["gpus"]["p50"] == 8.0);
  CHECK(j["all_gpu_jobs"]["state_share_of_jobs_percent"]["TIMEOUT"].get<double>() == Approx(20));
  CHECK(j["gpu_count_cdf"]["x"].size() == j["gpu_count_cdf"]["percent_of_jobs"].size());
  CHECK(j["duration_cdf_percent_of_jobs"]["x"].size() == 22);
  CHECK_FALSE(j.contains("against"));
  // Deterministic: the same input prints the same bytes.
  CHECK(run(std::string("workload stats --json ") + FIXTURE).out == r.out);

  // The format comes from the file name, or from --format.
  const Run swf = run("workload stats --json tests/data/traces/pwa_small.swf");
  REQUIRE(swf.exit_code == 0);
  CHECK(nlohmann::json::parse(swf.out)["format"] == "swf");
  const Run helios = run("workload stats --json --format helios tests/data/traces/helios_small.csv");
  REQUIRE(helios.exit_code == 0);
  CHECK(nlohmann::json::parse(helios.out)["format"] == "helios");
}

TEST_CASE("workload stats: --against seren puts the published values and gaps next to the trace")
{
  const Run text = run(std::string("workload stats --against seren ") + FIXTURE);
  REQUIRE(text.exit_code == 0);
  CHECK(has(text.out, "compared with Acme Seren"));
  CHECK(has(text.out, "Hu et al., NSDI'24"));
  CHECK(has(text.out, "largest CDF gaps vs Acme Seren"));
  CHECK(has(text.out, "fig3_gpus_by_jobs"));
  CHECK(has(text.out, "64.85")); // Eval share of GPU jobs (Fig. 4)
  CHECK(has(text.out, "96.75")); // Fig. 3 at 8 GPUs

  const Run json = run(std::string("workload stats --json --against seren ") + FIXTURE);
  REQUIRE(json.exit_code == 0);
  const auto a = nlohmann::json::parse(json.out).at("against");
  CHECK(a["cluster"] == "Seren");
  REQUIRE(a["cdfs"].size() == 9);
  CHECK(a["cdfs"][1]["id"] == "fig3_gpus_by_jobs");
  for (const auto& c : a["cdfs"]) {
    CHECK(c.contains("max_abs_gap_points"));
    CHECK(c.contains("max_gap_x"));
  }
  CHECK(a["max_cdf_gap_points"].is_number());
  CHECK(a["type_share_of_jobs"].size() == 6);
  CHECK(a["state_share_of_gpu_time"].size() == 3);
  CHECK(a["summary"].size() > 0);

  const Run kalos = run(std::string("workload stats --json --against kalos ") + FIXTURE);
  REQUIRE(kalos.exit_code == 0);
  const auto k = nlohmann::json::parse(kalos.out).at("against");
  CHECK(k["cluster"] == "Kalos");
  CHECK(k["cdfs"].size() == 7); // Fig. 6 has four Kalos types
  CHECK(k["unpublished_type_jobs"] == 2); // SFT and MLLM are not in the Kalos treemap
}

TEST_CASE("workload stats: an empty trace gives a clear report with zero counts")
{
  const fs::path empty = write("empty.csv", ACME_HEADER);
  const Run text = run("workload stats --against kalos '" + empty.string() + "'");
  REQUIRE(text.exit_code == 0);
  CHECK(has(text.out, "0 jobs"));
  CHECK(has(text.out, "no GPU jobs"));
  CHECK_FALSE(has(text.out, "nan"));
  const Run json = run("workload stats --json --against seren '" + empty.string() + "'");
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["jobs"] == 0);
  CHECK(j["types"]["Eval"]["share_of_jobs_percent"].is_null());
  CHECK(j["against"]["max_cdf_gap_points"].is_null());
}

TEST_CASE("workload stats: bad input exits 2")
{
  const Run missing = run("workload stats no-such-trace.csv");
  CHECK(missing.exit_code == 2);
  CHECK(has(missing.err, "no-such-trace.csv"));
  const fs::path bad = write("bad.csv", std::string(ACME_HEADER) +
                                            "a,u1,1,8,128,Pretrain,BROKEN,2023-03-01 00:00:00+08:00,"
                                            "2023-03-01 00:00:01+08:00,2023-03-01 01:00:01+08:00,3600,1,28800\n"
                                            "b,u2,1,1,16,Eval,COMPLETED,2023-03-01 00:00:05+08:00,"
                                            "2023-03-01 00:00:06+08:00,2023-03-01 00:01:06+08:00,60,1,60\n");
  const Run refused = run("workload stats '" + bad.string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK(has(refused.err, "bad.csv:2"));
  const Run skipped = run("workload stats --json --on-bad-row skip '" + bad.string() + "'");
  REQUIRE(skipped.exit_code == 0);
  CHECK(nlohmann::json::parse(skipped.out)["skipped_rows"] == 1);

  const Run against = run(std::string("workload stats --against frontier ") + FIXTURE);
  CHECK(against.exit_code == 2);
  CHECK(has(against.err, "unknown --against 'frontier'"));
  CHECK(has(against.err, "Seren"));
  // Clusters published with fewer curves (Philly: summary, Fig. 2a, Fig. 3) are accepted too.
  CHECK(run(std::string("workload stats --against philly ") + FIXTURE).exit_code == 0);
  CHECK(run(std::string("workload stats --format csv ") + FIXTURE).exit_code == 2);
  CHECK(run(std::string("workload stats --on-bad-row maybe ") + FIXTURE).exit_code == 2);
  CHECK(run("workload stats").exit_code == 2);
  CHECK(run(std::string("workload stats --help")).exit_code == 0);
}

} // namespace workload_stats_cli

// --- workload generate ---------------------------------------------------------------------


TEST_CASE("workload generate: writes an Acme trace that stats reads back close to the published values")
{
  using acmesim::testing::run_acmesim;
  using acmesim::testing::slurp;
  const auto dir = std::filesystem::temp_directory_path() / ("acmesim-gen-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto trace = (dir / "kalos.csv").string();
  const auto gen = run_acmesim("workload generate --preset kalos --days 107 --seed 2 -o '" + trace + "'");
  REQUIRE(gen.exit_code == 0);
  CHECK(gen.out.find("calibrated to the published Acme kalos") != std::string::npos);
  CHECK(slurp(trace).rfind("job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time", 0) == 0);
  // Same seed, same bytes.
  const auto again = (dir / "again.csv").string();
  REQUIRE(run_acmesim("workload generate --preset kalos --days 107 --seed 2 -o '" + again + "'").exit_code == 0);
  CHECK(slurp(trace) == slurp(again));
  // Read back through the CSV (times rounded to milliseconds): still within the targets.
  const auto stats = run_acmesim("workload stats --json --against kalos '" + trace + "'");
  REQUIRE(stats.exit_code == 0);
  const auto j = nlohmann::json::parse(stats.out);
  CHECK(j["against"]["max_cdf_gap_points"].get<double>() <= 2.0);
  CHECK(j["against"]["max_share_gap_points"].get<double>() <= 1.0);
  // Bad options are bad input.
  CHECK(run_acmesim("workload generate --preset frontier -o x.csv").exit_code == 2);
  CHECK(run_acmesim("workload generate --preset seren --days 0 -o x.csv").exit_code == 2);
  CHECK(run_acmesim("workload generate --preset seren").exit_code == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("workload generate -o: a device, a pipe or a link is written through and never replaced, and - is stdout")
{
  namespace fs = std::filesystem;
  using acmesim::testing::run_acmesim;
  using acmesim::testing::scratch;
  using acmesim::testing::slurp;
  const auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  const fs::path dir = scratch() / "outputs";
  fs::create_directories(dir);
  const std::string generate = "workload generate --preset kalos --days 1 --seed 3 -o ";
  // "-": the trace on stdout, what was written on stderr.
  const auto out = run_acmesim(generate + "-");
  CHECK(out.exit_code == 0);
  const std::string trace = out.out;
  CHECK(trace.rfind("job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time", 0) == 0);
  CHECK(has(out.err, "calibrated to the published Acme kalos distributions: -"));

  // A character device of the null device's numbers, made here (never /dev itself): it must stay one.
  const fs::path device = dir / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    CHECK(run_acmesim(generate + "'" + device.string() + "'").exit_code == 0);
    CHECK(fs::is_character_file(device));
    CHECK_FALSE(fs::exists(device.string() + ".partial"));
  } else {
    WARN("mknod needs root: the character-device case is not run here (CI runs as root)");
  }
  // A FIFO: a reader drains it into a file, and the FIFO stays a FIFO.
  const fs::path fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto piped = run_acmesim(generate + "'" + fifo.string() + "' & cat '" + fifo.string() + "' > '" +
                                 (dir / "drained.csv").string() + "'; wait");
  CHECK(piped.exit_code == 0);
  CHECK(fs::is_fifo(fifo));
  CHECK(slurp(dir / "drained.csv") == trace);
  // A link stays a link; the file it names gets the trace.
  fs::create_symlink(dir / "target.csv", dir / "link.csv");
  CHECK(run_acmesim(generate + "'" + (dir / "link.csv").string() + "'").exit_code == 0);
  CHECK(fs::is_symlink(dir / "link.csv"));
  CHECK(slurp(dir / "target.csv") == trace);
  // A directory is refused before any work, and left as it was.
  const auto into_dir = run_acmesim(generate + "'" + dir.string() + "'");
  CHECK(into_dir.exit_code == 2);
  CHECK(has(into_dir.err, "it is a directory"));
  CHECK(fs::is_directory(dir));
}

// --- a run's jobs.csv, per pod -------------------------------------------------------------

TEST_CASE("workload stats of a run's jobs.csv, per pod: the waits of the run against Fig. 6b/d")
{
  using acmesim::testing::run_acmesim;
  const auto dir = std::filesystem::temp_directory_path() / ("acmesim-podstats-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  // Two days of both clusters, each job on its own cluster (Kalos with its start overhead).
  const auto scenario = acmesim::testing::write_scratch_file(
      "both.yaml", "cluster: {preset: acme}\nworkload: {synthetic: {preset: acme, days: 2}}\n"
                   "scheduler: {name: easy-backfill, pods: separate}\nnetwork: {model: off}\n");
  const auto ran = run_acmesim("run '" + scenario.string() + "' --quiet --out '" + dir.string() + "'");
  REQUIRE(ran.exit_code == 0);
  const auto jobs = (dir / "jobs.csv").string();
  const auto kalos = run_acmesim("workload stats --json --against kalos --cluster kalos '" + jobs + "'");
  REQUIRE(kalos.exit_code == 0);
  const auto j = nlohmann::json::parse(kalos.out);
  CHECK(j["format"] == "jobs");
  // Every Kalos GPU job waited at least the platform's 4 s floor, and is compared on Fig. 6d.
  CHECK(j["all_gpu_jobs"]["jobs_with_wait"].get<std::size_t>() > 100);
  CHECK(j["all_gpu_jobs"]["wait_s"]["p50"].get<double>() >= 4.0);
  CHECK(j["against"]["queue_cdfs"].size() == 4); // Pretrain, Eval, Debug, Other
  CHECK(j["against"]["max_queue_gap_points"].is_number());
  // The Seren jobs are not among them, and Seren's have no such floor.
  const auto seren = run_acmesim("workload stats --json --cluster seren '" + jobs + "'");
  REQUIRE(seren.exit_code == 0);
  const auto s = nlohmann::json::parse(seren.out);
  CHECK(s["all_gpu_jobs"]["wait_s"]["p50"].get<double>() < 4.0);
  CHECK(s["gpu_jobs"].get<std::size_t>() + j["gpu_jobs"].get<std::size_t>() ==
        nlohmann::json::parse(run_acmesim("workload stats --json '" + jobs + "'").out)["gpu_jobs"].get<std::size_t>());
  // A cluster the run has no pod of is bad input, naming those it has.
  const auto none = run_acmesim("workload stats --cluster frontier '" + jobs + "'");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("kalos, seren") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("separate pods need every job to have a home pod, and no evaluation campaigns")
{
  using acmesim::testing::run_acmesim;
  // The default scenario's jobs are generated by hand: they have no home cluster.
  const auto homeless = run_acmesim("validate configs/default-scenario.yaml --set scheduler.pods=separate");
  CHECK(homeless.exit_code == 2);
  CHECK(homeless.err.find("has no home cluster") != std::string::npos);
  CHECK(homeless.err.find("scheduler.pods") != std::string::npos);
  // Acme's Seren jobs on a cluster without a pod named seren.
  const auto scenario = acmesim::testing::write_scratch_file(
      "elsewhere.yaml", "cluster: {preset: kalos}\nworkload: {synthetic: {preset: seren, days: 1}}\n"
                        "scheduler: {pods: separate}\n");
  const auto elsewhere = run_acmesim("validate '" + scenario.string() + "'");
  CHECK(elsewhere.exit_code == 2);
  CHECK(elsewhere.err.find("is from cluster 'seren'") != std::string::npos);
  const auto campaigns = run_acmesim("validate scenarios/acme-eval-feedback.yaml --set scheduler.pods=separate");
  CHECK(campaigns.exit_code == 2);
  CHECK(campaigns.err.find("evaluation campaigns need one scheduler for all pods") != std::string::npos);
}
