// What one pod's scheduler sees of a job's communication under scheduler.pods: separate: the
// cluster view's, with the links' leaves in the pod's own leaf ids, as its nodes are.
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

} // namespace

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
