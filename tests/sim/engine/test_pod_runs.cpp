// Pods scheduled as separate clusters (scheduler.pods: separate) and the platform's start
// overhead, through the engine on hand-computed cases. One TEST_CASE per process (one SimGrid
// engine per process): no SECTIONs here.
#include "models/cluster/StartOverheads.hpp"
#include "sim/policies/PodPartition.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// Jobs bound to pod "small" (0: 2 nodes of 8 GPUs) or "big" (1: 3 nodes of 16 GPUs).
Job bound(JobId id, double submit_s, int gpus, double duration_s, int pod)
{
  Job j = make_job(id, submit_s, gpus, duration_s);
  j.pod = pod;
  j.home = pod == 0 ? "small" : "big";
  return j;
}

Scenario separate(ClusterSpec cluster, const std::string& scheduler)
{
  Scenario s = hand_built_scenario(std::move(cluster), scheduler);
  s.scheduler.pods = PodScheduling::Separate;
  return s;
}

int pod_of(const RunResult& r, JobId id)
{
  return r.topology->pod_of(r.run->allocation(id).parts.front().node);
}

} // namespace

TEST_CASE("separate pods: a job waits for its own pod while the other is idle, and runs nowhere else")
{
  // j0 fills the small pod (16 GPUs) until 100; j1 (small) arrives at 1 and waits for it although
  // the big pod is empty; j2 (big) starts at once; j3 asks for more than the small pod has:
  // rejected, though the big pod could hold it.
  const Workload w = hand_built_workload(
      {bound(0, 0, 16, 100, 0), bound(1, 1, 8, 50, 0), bound(2, 2, 32, 10, 1), bound(3, 3, 24, 10, 0)});
  const RunResult r = run_simulation(separate(two_pod_cluster(), "easy-backfill"), w);
  const auto& jobs = r.run->jobs();
  CHECK(jobs.record(0).start_s == 0);
  CHECK(jobs.record(1).start_s == 100);
  CHECK(jobs.record(1).end_s == 150);
  CHECK(jobs.record(2).start_s == 2);
  CHECK(pod_of(r, 0) == 0);
  CHECK(pod_of(r, 1) == 0);
  CHECK(pod_of(r, 2) == 1);
  CHECK(jobs.record(3).outcome == JobOutcome::Rejected);
  CHECK(r.makespan_s == 150);
  CHECK(r.run->ledger().total_gpu_seconds() == Approx(r.topology->total_gpus() * r.makespan_s));
}

TEST_CASE("separate pods: each pod's scheduler sees its pod alone, in node ids of its own")
{
  const ClusterSpec cluster = two_pod_cluster();
  const Topology topology(cluster);
  std::vector<std::size_t> nodes_seen;
  const PodPartitionedScheduler s(topology, [&](int, const Topology& pod) {
    nodes_seen.push_back(pod.node_count());
    return std::unique_ptr<Scheduler>();
  });
  CHECK(nodes_seen == std::vector<std::size_t>{2, 3});
  // The big pod's topology: its three 16-GPU nodes, named as in the cluster.
  const Topology& big = s.pod_topology(1);
  CHECK(big.pod_count() == 1);
  CHECK(big.total_gpus() == 48);
  for (NodeId n = 0; n < big.node_count(); ++n)
    CHECK(big.node_name(n) == topology.node_name(topology.first_node_of_pod(1) + n));
}

TEST_CASE("start overhead: a job bound to a pod enters the queue that long after its submission")
{
  // The big pod's platform takes exactly 12 s to let a job start (a one-point table); the small
  // pod's none. Jobs submitted at 0 and 5 on the big pod start at 12 and 17; the small pod's at 5.
  ClusterSpec cluster = two_pod_cluster();
  cluster.pods[1].start_overhead_s = {{12}, {1}};
  const Workload w =
      hand_built_workload({bound(0, 0, 16, 100, 1), bound(1, 5, 16, 10, 1), bound(2, 5, 8, 10, 0)});
  const RunResult r = run_simulation(separate(cluster, "fifo"), w);
  const auto& jobs = r.run->jobs();
  CHECK(jobs.record(0).start_s == 12);
  CHECK(jobs.record(1).start_s == 17);
  CHECK(jobs.record(2).start_s == 5);
  CHECK(r.makespan_s == 112);
}

TEST_CASE("start overhead: unbound jobs take it only when every pod has the same")
{
  // Shared pods with different overheads: an unbound job's pod is not known before it starts, so
  // none applies; the same table on both pods applies to every job.
  ClusterSpec different = two_pod_cluster();
  different.pods[1].start_overhead_s = {{12}, {1}};
  ClusterSpec same = different;
  same.pods[0].start_overhead_s = {{12}, {1}};
  Workload w = hand_built_workload({make_job(0, 0, 8, 10), make_job(1, 1, 8, 10)});
  CHECK(draw_start_overheads(different, w, 1) == std::vector<double>{0, 0});
  CHECK(draw_start_overheads(same, w, 1) == std::vector<double>{12, 12});
  CHECK(draw_start_overheads(two_pod_cluster(), w, 1).empty());
  w.jobs[1].pod = 1; // bound to the big pod: its table applies
  CHECK(draw_start_overheads(different, w, 1) == std::vector<double>{0, 12});
  const RunResult r = run_simulation(hand_built_scenario(same, "fifo"), hand_built_workload({make_job(0, 0, 8, 10)}));
  CHECK(r.run->jobs().record(0).start_s == 12);
}
