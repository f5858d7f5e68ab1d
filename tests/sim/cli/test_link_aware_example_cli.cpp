// The network-aware example policy (examples/python/link_aware_fifo.py, CASSINI's placement half)
// against FIFO with pack, as a user runs them: on a contended case it keeps two jobs' rings off the
// same uplinks and both end on time, where pack makes them share; on an uncontended one it gives
// the same results.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace acmesim::testing;

namespace {

// 16 nodes of one 200 Gb/s NIC, 4 to a leaf with one uplink (4:1), mixtures of experts (EP 8, all-
// to-alls on the critical path). Job a (7 nodes) starts at 0, x and y (3 nodes each) at 1 and 2 s,
// b (2 nodes) at 600 s. Pack puts a on leaf 0 and three nodes of leaf 1, x and y on leaves 2 and 3,
// and then b, which no leaf holds, on the fullest leaves in order, each with one free node: leaves
// 1 and 2. The rings of a and b then share leaf 1's uplink.
const char* const TRACE = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                          "queue,gpu_time\n"
                          "a,u1,7,56,896,Pretrain,COMPLETED,2023-06-01 00:00:00,,,7200,0,0\n"
                          "x,u2,3,24,384,Pretrain,COMPLETED,2023-06-01 00:00:01,,,10800,0,0\n"
                          "y,u3,3,24,384,Pretrain,COMPLETED,2023-06-01 00:00:02,,,10800,0,0\n"
                          "b,u4,2,16,256,Pretrain,COMPLETED,2023-06-01 00:10:00,,,3600,0,0\n";
const char* const SCENARIO = "name: contended\n"
                             "seed: 1\n"
                             "cluster:\n"
                             "  name: tiny\n"
                             "  nodes: 16\n"
                             "  compute_nics: 1\n"
                             "  fabric: {leaf_radix: 5, oversubscription: 4}\n"
                             "workload: {trace: contended.csv}\n"
                             "scheduler: {name: fifo, placement: pack}\n"
                             "network: {expert_parallel: 8}\n";

struct JobRow {
  double jct_s = 0;
  std::string nodes;
};

// jobs.csv's completion time and nodes, by job name.
std::map<std::string, JobRow> run_jobs(const std::string& name, const std::string& sets)
{
  write_scratch_file("contended.csv", TRACE);
  const auto scenario = write_scratch_file("contended.yaml", SCENARIO);
  const auto out = scratch() / name;
  const auto o = run_acmesim("run '" + scenario.string() + "' --quiet --out '" + out.string() + "'" + sets);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  std::map<std::string, JobRow> rows;
  for (auto& cells : jobs_csv_rows(out / "jobs.csv"))
    rows[cells.at("job_id")] = JobRow{std::stod(cells.at("jct_s")), cells.at("node_list")};
  REQUIRE(rows.size() == 4);
  return rows;
}

const std::string LINK_AWARE = " --set scheduler.name=link-aware-fifo --set scheduler.class=LinkAwareFifo"
                               " --set scheduler.python='" +
                               std::string(ACMESIM_SOURCE_DIR) + "/examples/python/link_aware_fifo.py'";

} // namespace

TEST_CASE("link-aware example: on a contended fabric it keeps two rings off one uplink, and both end on time where "
          "pack slows them")
{
  const auto pack = run_jobs("pack", "");
  const auto aware = run_jobs("aware", LINK_AWARE);
  CHECK(pack.at("b").nodes == "tiny-n7 tiny-n11");
  CHECK(aware.at("b").nodes == "tiny-n11 tiny-n15");
  // Link-aware: b crosses the uplinks of leaves 2 and 3, which no other ring crosses, and a's ring
  // is alone on those of leaves 0 and 1: every ring has its links to itself, as on the fabric the
  // jobs were timed on, so each ends at its recorded duration.
  for (const auto& [job, duration] : std::map<std::string, double>{{"a", 7200}, {"x", 10800}, {"y", 10800}, {"b", 3600}})
    CHECK(aware.at(job).jct_s == Approx(duration));
  // Pack: a and b share leaf 1's uplink while b runs, and their all-to-alls wait for each other
  // (1.20 and 1.41 times their durations at the scenario's seed, random phases): the two jobs
  // that cross the spines take 1.27 times as long on average. x and y, inside their leaves, are
  // untouched.
  CHECK(pack.at("a").jct_s > 7200 * 1.1);
  CHECK(pack.at("b").jct_s > 3600 * 1.3);
  CHECK(pack.at("a").jct_s + pack.at("b").jct_s > 1.25 * (aware.at("a").jct_s + aware.at("b").jct_s));
  CHECK(pack.at("x").jct_s == Approx(10800));
  CHECK(pack.at("y").jct_s == Approx(10800));
}

TEST_CASE("link-aware example: on a non-blocking fabric it loses nothing against pack")
{
  // The same jobs under leaves of four uplinks (1:1): rings that share an uplink still get all they
  // ask, so where b goes does not matter, and both policies end every job at its duration.
  const std::string non_blocking = " --set cluster.fabric.leaf_radix=8 --set cluster.fabric.oversubscription=1";
  const auto pack = run_jobs("pack-nb", non_blocking);
  const auto aware = run_jobs("aware-nb", non_blocking + LINK_AWARE);
  for (const std::string job : {"a", "x", "y", "b"}) {
    INFO(job);
    CHECK(aware.at(job).jct_s == Approx(pack.at(job).jct_s));
  }
  CHECK(pack.at("b").jct_s == Approx(3600));
}
