// What one pod's scheduler sees under scheduler.pods: separate: a job's communication as the
// cluster view's, with the links' leaves in the pod's own leaf ids, as its nodes are; and the
// running jobs of its own pod only, in its node ids.
#include "sim/policies/PodPartition.hpp"
#include "sim/policies/Registries.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

#include <optional>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// FIFO with pack that keeps what it last saw of job 0's communication.
class Probe final : public Scheduler {
public:
  Probe(const Topology& topology, std::optional<JobCommunication>& seen)
      : fifo_(scheduler_registry().make("fifo", {}, topology, placement_registry().make("pack", {}, 1))), seen_(seen)
  {
  }
  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override
  {
    seen_ = view.communication(0);
    return fifo_->decide(view, events);
  }

private:
  std::unique_ptr<Scheduler> fifo_;
  std::optional<JobCommunication>& seen_;
};

// FIFO with pack that keeps what each pod's scheduler last saw of the running jobs.
class RunningProbe final : public Scheduler {
public:
  RunningProbe(const Topology& topology, std::vector<RunningJob>& seen)
      : fifo_(scheduler_registry().make("fifo", {}, topology, placement_registry().make("pack", {}, 1))), seen_(seen)
  {
  }
  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override
  {
    Decisions d = fifo_->decide(view, events);
    seen_ = view.running_jobs();
    return d;
  }

private:
  std::unique_ptr<Scheduler> fifo_;
  std::vector<RunningJob>& seen_;
};

} // namespace

TEST_CASE("separate pods: a pod's scheduler lists only its pod's running jobs, on its own node ids")
{
  HandBuiltView view(two_pod_cluster());
  view.estimates_model = RuntimeEstimates{EstimateModel::Factor, 2};
  std::vector<std::vector<RunningJob>> seen(2);
  PodPartitionedScheduler s(view.topology(),
                            [&](int pod, const Topology& t) { return std::make_unique<RunningProbe>(t, seen[pod]); });
  Job small = make_job(0, 0, 8, 100);
  small.pod = 0;
  Job big = make_job(1, 0, 32, 50);
  big.pod = 1;
  view.submit(s, 0, {small, big});
  REQUIRE(view.is_running(0));
  REQUIRE(view.is_running(1));
  Job later = make_job(2, 10, 16, 10);
  later.pod = 1;
  CHECK(view.submit(s, 10, {later}) == std::vector<JobId>{2});
  Job too_big = make_job(3, 15, 48, 10);
  too_big.pod = 1;
  CHECK(view.submit(s, 15, {too_big}).empty()); // a call of the big pod's scheduler: what it sees
  REQUIRE(seen[1].size() == 2);
  CHECK(seen[1][0].job == 1);
  CHECK(seen[1][0].estimated_end_s == 100);
  CHECK(seen[1][0].allocation.parts.front().node == 0); // the big pod's first node, in its own ids
  CHECK(seen[1][1].job == 2);
  CHECK(seen[1][1].estimated_end_s == 30);
}

TEST_CASE("separate pods: a pod's scheduler sees a job's communication with the links' leaves in its own leaf ids")
{
  const ClusterSpec cluster = two_pod_cluster();
  HandBuiltView view(cluster);
  const Topology& topology = view.topology();
  std::optional<JobCommunication> seen;
  PodPartitionedScheduler s(topology, [&](int, const Topology& pod) { return std::make_unique<Probe>(pod, seen); });

  Job job = make_job(0, 0, 32, 100);
  job.pod = 1;
  view.submit(s, 0, {job});
  REQUIRE(view.is_running(0));
  // The run's view names the leaf of the big pod's first node in the cluster's leaf ids.
  const LeafId leaf = topology.leaf_of(topology.first_node_of_pod(1));
  REQUIRE(leaf > 0);
  JobCommunication sent;
  sent.step_s = 10;
  sent.links = {CommLink{"cable_UP", leaf, false, true, 1}};
  view.communications[0] = sent;
  Job other = make_job(1, 5, 16, 100);
  other.pod = 1;
  view.submit(s, 5, {other});
  REQUIRE(seen.has_value());
  CHECK(seen->step_s == 10);
  REQUIRE(seen->links.size() == 1);
  CHECK(seen->links[0].leaf == leaf - topology.leaves_of_pod(1).front());
  CHECK(seen->links[0].leaf == 0);
  CHECK(seen->links[0].name == "cable_UP");
}
