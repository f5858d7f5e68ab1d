// Result files of a small run, checked after parsing.
#include "sim/config/ScenarioLoader.hpp"
#include "sim/config/WorkloadLoader.hpp"
#include "sim/report/Reports.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace acmesim;
using namespace acmesim::testing;

namespace {
std::string read_file(const std::filesystem::path& p)
{
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
} // namespace

TEST_CASE("jobs.csv and summary.json of a hand-computed run")
{
  Job pretrain = make_job(0, 0, 12, 100, JobType::Pretrain);
  pretrain.final_state = JobState::Cancelled;
  Job eval = make_job(1, 10, 1, 20, JobType::Eval);
  eval.final_state = JobState::Failed;
  Job cpu = make_job(2, 20, 0, 5, JobType::Other);
  Job huge = make_job(3, 30, 64, 5, JobType::Pretrain);
  const Workload w = hand_built_workload({pretrain, eval, cpu, huge});
  const Scenario scenario = hand_built_scenario(tiny_cluster(3, 2), "fifo");
  const RunResult r = run_simulation(scenario, w);

  const auto dir = std::filesystem::temp_directory_path() / ("acmesim-test-outputs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  write_results(dir, scenario, r, summarise_run(scenario, w, r));
  CHECK_FALSE(std::filesystem::exists(dir / "jobs.csv.partial"));
  CHECK_FALSE(std::filesystem::exists(dir / "summary.json.partial"));

  // j0 takes two whole nodes of leaf0 (tiny-n0, tiny-n1); j1 the best-fitting node: tiny-n2.
  CHECK(read_file(dir / "jobs.csv") ==
        "job_id,type,user,gpus,nodes,cpus,submit_s,start_s,end_s,wait_s,jct_s,state,pod,leaves,node_list,"
        "interruptions,preemptions,checkpoints,useful_s,lost_s,preempted_s,checkpoint_s,detection_s,"
        "waiting_for_person_s,restart_s,ettr\n"
        "j0,Pretrain,u,12,2,0,0.000,0.000,100.000,0.000,100.000,CANCELLED,tiny,1,tiny-n0 tiny-n1,"
        "0,0,0,100.000,0.000,0.000,0.000,0.000,0.000,0.000,1.000000\n"
        "j1,Eval,u,1,1,0,10.000,10.000,30.000,0.000,20.000,FAILED,tiny,1,tiny-n2,"
        "0,0,0,20.000,0.000,0.000,0.000,0.000,0.000,0.000,1.000000\n"
        "j2,Other,u,0,0,0,20.000,20.000,25.000,0.000,5.000,COMPLETED,,0,,0,0,0,,0.000,0.000,0.000,0.000,0.000,0.000,\n"
        "j3,Pretrain,u,64,0,0,30.000,,,,,REJECTED,,0,,0,0,0,,0.000,0.000,0.000,0.000,0.000,0.000,\n");

  const Json s = Json::parse(read_file(dir / "summary.json"));
  CHECK(s["makespan_s"] == 100.0);
  CHECK(s["seed"] == 1);
  CHECK(s["program"]["name"] == "acmesim");
  CHECK(s["jobs"]["total"] == 4);
  CHECK(s["jobs"]["cpu_only"] == 1);
  CHECK(s["jobs"]["rejected"] == 1);
  CHECK(s["jobs"]["by_final_state"]["CANCELLED"] == 1);
  CHECK(s["jobs"]["by_final_state"]["FAILED"] == 1);
  CHECK(s["jobs"]["by_final_state"]["COMPLETED"] == 1); // the CPU-only job
  CHECK(s["jct_s"]["all"]["count"] == 2);
  CHECK(s["jct_s"]["all"]["mean"] == 60.0);
  CHECK(s["jct_s"]["by_type"]["Eval"]["p99"] == 20.0);
  CHECK(s["wait_s"]["all"]["max"] == 0.0);
  // 24 GPUs x 100 s: 12 busy + 4 stranded for 100 s, 1 busy for 20 s.
  CHECK(s["gpu_hours"]["busy"].get<double>() == Approx((1200.0 + 20.0) / 3600));
  CHECK(s["gpu_hours"]["stranded"].get<double>() == Approx(400.0 / 3600));
  CHECK(s["gpu_hours"]["total"].get<double>() == Approx(2400.0 / 3600));
  CHECK(s["utilisation"]["mean_gpu_busy"].get<double>() == Approx(1220.0 / 2400));
  CHECK(s["scenario"]["scheduler"]["name"] == "fifo");
  CHECK(s["scenario"]["cluster"]["pods"][0]["nodes"] == 3);
  std::filesystem::remove_all(dir);
}

// A run that moves no storage data keeps time itself (Simulation.hpp), with or without the network
// model's rings; on SimGrid's timer instead, every result file is the same, byte for byte. Three
// days of the default scenario on Kalos: thousands of jobs of every type, queueing under EASY
// backfill, and with the network model its multi-node jobs' rings sharing the fabric.
namespace {

// Runs `scenario` with SimGrid keeping time and writes its results into `dir`, in a child process:
// SimGrid allows one engine per process, and the run that keeps time itself builds one too when
// the network model is on. Returns whether the child succeeded.
bool write_results_on_simgrid(const Scenario& scenario, const Workload& workload, const std::filesystem::path& dir)
{
  const pid_t child = ::fork();
  if (child == 0) {
    int code = 1;
    try {
      RunOptions on_simgrid;
      on_simgrid.always_on_simgrid = true;
      const RunResult timed = run_simulation(scenario, workload, on_simgrid);
      if (timed.simgrid_kept_time) {
        write_results(dir, scenario, timed, summarise_run(scenario, workload, timed));
        code = 0;
      }
    } catch (...) {
    }
    std::_Exit(code);
  }
  int status = 0;
  return child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Returns the run that kept time itself.
RunResult check_same_results_on_simgrid(const Scenario& scenario, const std::string& name)
{
  const Workload workload = load_workload(scenario);
  REQUIRE(workload.jobs.size() > 1000);
  const auto base =
      std::filesystem::temp_directory_path() / ("acmesim-test-clocks-" + name + "-" + std::to_string(::getpid()));
  REQUIRE(write_results_on_simgrid(scenario, workload, base / "simgrid"));
  RunResult itself = run_simulation(scenario, workload);
  CHECK_FALSE(itself.simgrid_kept_time);
  write_results(base / "itself", scenario, itself, summarise_run(scenario, workload, itself));
  for (const char* file : {"jobs.csv", "utilisation.csv", "summary.json"}) {
    INFO(file);
    const std::string text = read_file(base / "itself" / file);
    CHECK(text.size() > 1000);
    CHECK(text == read_file(base / "simgrid" / file));
  }
  std::filesystem::remove_all(base);
  return itself;
}

} // namespace

TEST_CASE("a run without storage flows or the network model gives the same results with SimGrid keeping time")
{
  check_same_results_on_simgrid(load_default_scenario({"network.model=off"}), "off");
}

TEST_CASE("a run without storage flows, its rings on the fabric, gives the same results with SimGrid keeping time")
{
  const Scenario scenario = load_default_scenario({"network.model=flows"});
  REQUIRE(scenario.network.on());
  const RunResult run = check_same_results_on_simgrid(scenario, "rings");
  REQUIRE(run.network_load);
  CHECK_FALSE(run.network_load->links.empty()); // rings were open
}
