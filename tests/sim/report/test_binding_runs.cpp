// CPU utilisation and what binds (summary.json `utilisation` and `binding`; docs/outputs.md, "What
// binds"), worked by hand through the engine. One TEST_CASE per process (one SimGrid engine each).
#include "sim/report/Reports.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

Job with_cpus(Job job, int cpus)
{
  job.cpus = cpus;
  return job;
}

std::vector<std::string> resources(const RunSummary& s)
{
  std::vector<std::string> names;
  for (const auto& flag : s.binding)
    names.push_back(flag.resource);
  return names;
}

} // namespace

TEST_CASE("what binds: CPU cores held beyond the cluster's, and GPUs when none is free for the queue")
{
  // One node of 8 GPUs and 16 cores. Two 8-GPU jobs of 16 cores each run 0-1000 s and 1000-2000 s
  // (FIFO); a CPU-only job of 8 cores runs 500-1500 s. Cores held: 16, then 24 from 500 s to 1500 s
  // (the GPU jobs swap at 1000 s in one instant), then 16 until 2000 s.
  ClusterSpec cluster = tiny_cluster(1, 1);
  cluster.pods[0].cpus_per_node = 16;
  const Scenario scenario = hand_built_scenario(cluster, "fifo");
  const Workload w = hand_built_workload({with_cpus(make_job(0, 0, 8, 1000), 16),
                                          with_cpus(make_job(1, 0, 8, 1000), 16),
                                          with_cpus(make_job(2, 500, 0, 1000), 8)});
  const RunResult r = run_simulation(scenario, w);
  const RunSummary s = summarise_run(scenario, w, r);
  REQUIRE(s.makespan_s == 2000);
  const CpuUtilisation& cpu = s.utilisation.cpu;
  CHECK(cpu.cpus == 16);
  CHECK(cpu.mean_demand == Approx((16 * 500 + 24 * 1000 + 16 * 500) / (16.0 * 2000))); // 1.25
  CHECK(cpu.mean_busy == Approx(1.0));
  CHECK(cpu.peak_demand == Approx(1.5)); // 24 of 16, not 40: the swap at 1000 s makes no stretch
  CHECK(cpu.over_capacity_share == Approx(0.5));
  // Job 1 queued 0-1000 s with no GPU free: GPUs bind, and the CPUs were over their cores.
  CHECK(s.utilisation.gpu_free_while_queued == 0);
  CHECK(s.utilisation.queued_time_share == Approx(0.5)); // job 1, 0-1000 s of 2000
  CHECK(resources(s) == std::vector<std::string>{"cpus", "gpus"});
  CHECK(s.binding[0].why.find("the cluster's 16 for 50.0% of the run (at most 150.0% of them)") != std::string::npos);
  CHECK(s.binding[1].why.find("queued 500 s on average") != std::string::npos);
}

TEST_CASE("what binds: GPUs free while FIFO holds the queue behind a job that does not fit")
{
  // Two nodes of 8 GPUs. An 8-GPU job runs 0-1000 s; a 16-GPU job submitted at 1 s waits for it
  // and runs 1000-2000 s; a 1-GPU job submitted at 2 s waits behind it under FIFO. The queue is
  // never empty from 1 s to 2000 s; 8 GPUs are free for the first 999 s of it.
  const Scenario scenario = hand_built_scenario(tiny_cluster(2, 2), "fifo");
  const Workload w = hand_built_workload({make_job(0, 0, 8, 1000), make_job(1, 1, 16, 1000), make_job(2, 2, 1, 10)});
  const RunResult r = run_simulation(scenario, w);
  const RunSummary s = summarise_run(scenario, w, r);
  CHECK(s.utilisation.gpu_free_while_queued == Approx(8.0 * 999 / (16.0 * 1999)));
  CHECK(s.utilisation.queued_time_share == Approx(1999 / 2010.0)); // 1-2000 s of a run ending at 2010 s
  CHECK(resources(s) == std::vector<std::string>{"scheduling"});
  CHECK(s.binding[0].why.find("queued for 99.5% of the run, and meanwhile 25.0% of the GPUs were free") !=
        std::string::npos);
  // No job asked for cores: none held.
  CHECK(s.utilisation.cpu.mean_demand == 0);
  CHECK(s.utilisation.cpu.peak_demand == 0);
}

TEST_CASE("what binds: the platform's start overhead, when it is most of the wait")
{
  // Every GPU job enters the queue 30 s after its submission and starts then on a free node.
  ClusterSpec cluster = tiny_cluster(1, 1);
  cluster.pods[0].start_overhead_s = EmpiricalSpec{{30}, {1}};
  const Scenario scenario = hand_built_scenario(cluster, "fifo");
  const Workload w = hand_built_workload({make_job(0, 0, 1, 100), make_job(1, 10, 1, 100)});
  const RunResult r = run_simulation(scenario, w);
  const RunSummary s = summarise_run(scenario, w, r);
  REQUIRE(s.wait_s.all.mean);
  CHECK(*s.wait_s.all.mean == Approx(30));
  CHECK(s.utilisation.gpu_free_while_queued == 0); // never queued past an instant
  CHECK(s.utilisation.queued_time_share == 0);
  CHECK(resources(s) == std::vector<std::string>{"start_overhead"});
  CHECK(s.binding[0].why == "the platform's start overhead was 30 s of the 30 s GPU jobs waited on average (100.0%): "
                            "it, not capacity, sets their wait");
}
