// Runs through the engine on a cluster of two pods with different node sizes, under each
// placement policy, and a ledger check against the per-job records of a larger run.
// One TEST_CASE per process (one SimGrid engine per process): no SECTIONs here.
#include "sim/config/ScenarioLoader.hpp"
#include "sim/config/WorkloadLoader.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

Workload mixed_jobs()
{
  return hand_built_workload({make_job(0, 0, 12, 100), make_job(1, 1, 24, 50), make_job(2, 2, 4, 30),
                              make_job(3, 3, 16, 80), make_job(4, 4, 8, 20), make_job(5, 5, 40, 10),
                              make_job(6, 6, 2, 60), make_job(7, 7, 32, 40)});
}

// Every allocation lies in one pod and has the shape its pod's node size implies.
void check_allocations(const RunResult& r, const Workload& w)
{
  const Topology& topo = *r.topology;
  for (const Job& j : w.jobs) {
    INFO("job " << j.name);
    const JobRecord& rec = r.run->jobs().record(j.id);
    const Allocation& allocation = r.run->allocation(j.id);
    REQUIRE(rec.outcome == JobOutcome::Ended);
    const int pod = topo.pod_of(allocation.parts.front().node);
    const JobShape shape = job_shape(j.gpus, topo.spec().pods[pod].gpus_per_node);
    CHECK(allocation.node_count() == shape.nodes);
    for (const auto& part : allocation.parts) {
      CHECK(topo.pod_of(part.node) == pod);
      CHECK(part.gpus == shape.gpus_per_node);
    }
  }
  CHECK(r.run->ledger().total_gpu_seconds() == Approx(topo.total_gpus() * r.makespan_s));
}

RunResult run_with(const std::string& placement, const Workload& w)
{
  return run_simulation(hand_built_scenario(two_pod_cluster(), "easy-backfill", placement), w);
}

} // namespace

TEST_CASE("pack on two pods of different node sizes prefers one node, then fewest leaves")
{
  const Workload w = mixed_jobs();
  const RunResult r = run_with("pack", w);
  check_allocations(r, w);
  // 12 GPUs fit on one 16-GPU node of the big pod (node 2) rather than two 8-GPU nodes.
  CHECK(r.run->allocation(0).parts.front().node == 2);
  CHECK(r.run->allocation(0).node_count() == 1);
  // 24 GPUs: two whole big nodes (the small pod has only 16 GPUs).
  CHECK(r.topology->pod_of(r.run->allocation(1).parts.front().node) == 1);
}

TEST_CASE("spread on two pods of different node sizes gives every job a valid allocation")
{
  const Workload w = mixed_jobs();
  check_allocations(run_with("spread", w), w);
}

TEST_CASE("random on two pods of different node sizes gives every job a valid allocation")
{
  const Workload w = mixed_jobs();
  check_allocations(run_with("random", w), w);
}

TEST_CASE("ledger busy and stranded GPU-time equal the sums over the jobs that ran")
{
  // A day of mixed jobs, some of 12 GPUs (two whole nodes, four GPUs stranded).
  const Scenario s = load_scenario_text(
      "cluster: {nodes: 24, gpus_per_node: 8, fabric: {nodes_per_leaf: 4}}\n"
      "workload:\n  synthetic:\n    days: 1\n    types:\n"
      "      Eval: {arrivals_per_hour: 40, gpus: {values: [1, 2, 4, 8], cdf: [0.6, 0.8, 0.9, 1]},\n"
      "             duration_s: {values: [10, 600, 7200], cdf: [0.2, 0.8, 1]}}\n"
      "      Pretrain: {arrivals_per_hour: 1, gpus: {values: [12, 64, 128], cdf: [0.5, 0.8, 1]},\n"
      "                 duration_s: {values: [600, 36000], cdf: [0.5, 1]}}\n"
      "scheduler: {name: easy-backfill}\n",
      "ledger.yaml", ACMESIM_SOURCE_DIR);
  const Workload w = load_workload(s);
  const RunResult r = run_simulation(s, w);
  double busy = 0, stranded = 0;
  for (const Job& j : w.jobs) {
    const JobRecord& rec = r.run->jobs().record(j.id);
    REQUIRE(rec.outcome == JobOutcome::Ended);
    const double ran = rec.end_s - rec.start_s;
    busy += j.gpus * ran;
    stranded += (r.run->allocation(j.id).gpus_held() - j.gpus) * ran;
  }
  const Ledger& ledger = r.run->ledger();
  CHECK(busy > 0);
  CHECK(stranded > 0);
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(busy).epsilon(1e-9));
  CHECK(ledger.gpu_seconds(GpuState::Stranded) == Approx(stranded).epsilon(1e-9));
  CHECK(ledger.gpu_seconds(GpuState::Idle) ==
        Approx(192 * r.makespan_s - busy - stranded).epsilon(1e-9));
}
