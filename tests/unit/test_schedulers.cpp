// Schedulers on hand-built queues, without the engine: a minimal ClusterView stands in for the
// simulation, and the tests check the decisions.
#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FifoScheduler.hpp"
#include "sim/policies/Placements.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

namespace {

class HandBuiltView final : public ClusterView {
public:
  explicit HandBuiltView(const ClusterSpec& spec) : topology_(spec), cluster_(topology_) {}

  double now() const override { return now_; }
  const Topology& topology() const override { return topology_; }
  const ClusterState& cluster() const override { return cluster_; }
  const Job& job(JobId id) const override { return jobs_.at(id); }
  const std::set<JobId>& queue() const override { return queue_; }
  RunningJob running(JobId id) const override { return running_.at(id); }

  // Submits jobs at `now` and returns the scheduler's decisions, applied to the view.
  std::vector<JobId> submit(Scheduler& s, double now, std::vector<Job> jobs)
  {
    now_ = now;
    std::vector<SchedulerEvent> events;
    for (auto& j : jobs) {
      queue_.insert(j.id);
      events.push_back({EventKind::JobSubmitted, now, j.id});
      jobs_[j.id] = std::move(j);
    }
    return apply(s.decide(*this, events));
  }

  std::vector<JobId> finish(Scheduler& s, double now, JobId id)
  {
    now_ = now;
    cluster_.give_back(running_.at(id).allocation);
    running_.erase(id);
    return apply(s.decide(*this, {{EventKind::JobFinished, now, id}}));
  }

  const Allocation& allocation(JobId id) const { return running_.at(id).allocation; }

private:
  std::vector<JobId> apply(const Decisions& d)
  {
    std::vector<JobId> started;
    for (const auto& start : d.starts) {
      cluster_.take(start.allocation);
      queue_.erase(start.job);
      running_[start.job] = RunningJob{start.job, now_, start.allocation};
      started.push_back(start.job);
    }
    return started;
  }

  Topology topology_;
  ClusterState cluster_;
  double now_ = 0;
  std::map<JobId, Job> jobs_;
  std::set<JobId> queue_;
  std::map<JobId, RunningJob> running_;
};

using Ids = std::vector<JobId>;

std::unique_ptr<Scheduler> easy(const Topology& t, double factor = 1.0, int depth = 1000)
{
  return std::make_unique<EasyBackfillScheduler>(t, std::make_unique<PackPlacement>(), factor, depth);
}

} // namespace

TEST_CASE("fifo starts jobs in order and blocks behind a head that does not fit")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FifoScheduler fifo(view.topology(), std::make_unique<PackPlacement>());
  CHECK(view.submit(fifo, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // j1 needs both nodes; j2 would fit on node1 but must wait behind j1.
  CHECK(view.submit(fifo, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 50)}).empty());
  // When j0 ends, j1 starts; j2 still waits.
  CHECK(view.finish(fifo, 100, 0) == Ids{1});
  CHECK(view.finish(fifo, 200, 1) == Ids{2});
}

TEST_CASE("easy-backfill starts a short job that ends before the head's reservation")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // Shadow time for j1 is 100; j2 ends at 60 <= 100 and starts on node1.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 50)}) == Ids{2});
  CHECK(view.allocation(2).parts[0].node == 1);
  // A job that would run past 100 on node1 would delay j1: it waits.
  CHECK(view.submit(*s, 20, {make_job(3, 20, 2, 500)}).empty());
}

// Three nodes. j0 (8 GPUs) on node0 ends at 100; j1 (2 GPUs) on node1 runs long.
// Head j2 needs two whole nodes: only node2 is wholly free, so it is reserved at t = 100 on
// nodes 0 and 2; node1's 6 free GPUs are not needed by it.
TEST_CASE("easy-backfill lets long jobs use only GPUs the reservation does not need")
{
  HandBuiltView view(tiny_cluster(3, 3));
  auto s = easy(view.topology());
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 2, 1000)}) == Ids{0, 1});
  const Ids started = view.submit(*s, 10,
                                  {make_job(2, 10, 16, 100),   // head: reserved
                                   make_job(3, 10, 8, 1000),   // long, would take node2: refused
                                   make_job(4, 10, 4, 1000),   // long, fits on node1's spare GPUs
                                   make_job(5, 10, 8, 50)});   // ends at 60 <= 100: backfilled on node2
  CHECK(started == Ids{4, 5});
  CHECK(view.allocation(4).parts[0].node == 1);
  CHECK(view.allocation(5).parts[0].node == 2);
}

TEST_CASE("easy-backfill runtime over-estimates make fewer jobs look short")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology(), 3.0);
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // Estimated end of j0 is 300 (shadow); j2 is estimated at 10 + 3 x 50 = 160 <= 300: starts.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 4, 50)}) == Ids{2});
  // j3 (estimate 20 + 3 x 100 = 320 > 300) would use node1, which the head needs: refused.
  CHECK(view.submit(*s, 20, {make_job(3, 20, 2, 100)}).empty());
}

TEST_CASE("easy-backfill examines at most backfill_depth jobs behind the head")
{
  HandBuiltView view(tiny_cluster(2, 2));
  auto s = easy(view.topology(), 1.0, 1);
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  // j2 does not fit (needs 8 on node1? it does fit but runs long), j3 is short but is the
  // second job behind the head: not examined.
  CHECK(view.submit(*s, 10, {make_job(1, 10, 16, 100), make_job(2, 10, 8, 500), make_job(3, 10, 1, 5)}).empty());
}
