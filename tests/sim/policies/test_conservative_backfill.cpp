// Conservative backfilling on hand-built queues, against EASY on the same queue, and the free-GPU
// timeline its reservations are made on.
#include "sim/policies/ConservativeBackfillScheduler.hpp"
#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/Placements.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

using namespace acmesim;
using acmesim::testing::HandBuiltView;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

namespace {

using Ids = std::vector<JobId>;

// Four nodes of 8 GPUs. r0 holds node 0 until 100, r1 node 1 until 300. Queued at 0, in order:
// j2 wants the whole cluster for 50 s, j3 three nodes for 100 s, j4 one node for 150 s.
void start_scenario(Scheduler& s, HandBuiltView& view)
{
  REQUIRE(view.submit(s, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 8, 300)}) == Ids{0, 1});
}
std::vector<Job> queued_jobs()
{
  return {make_job(2, 0, 32, 50), make_job(3, 0, 24, 100), make_job(4, 0, 8, 150)};
}

} // namespace

TEST_CASE("conservative backfilling honours the second job's reservation where EASY delays it")
{
  // EASY protects only j2 (reserved at 300): j4 ends by then, so it starts at once on a free
  // node, and j3, which could have started at 100 when r0 ends, waits for j4 until 150.
  {
    HandBuiltView view(tiny_cluster(4, 4));
    EasyBackfillScheduler easy(view.topology(), std::make_unique<PackPlacement>(), 1000);
    start_scenario(easy, view);
    CHECK(view.submit(easy, 0, queued_jobs()) == Ids{4});
    CHECK(view.finish(easy, 100, 0).empty());
    CHECK(view.finish(easy, 150, 4) == Ids{3});
    CHECK(view.finish(easy, 250, 3).empty());
    CHECK(view.finish(easy, 300, 1) == Ids{2});
  }
  // Conservative: j2 is reserved at 300 on every node, j3 at 100 on nodes 0, 2 and 3 until 200;
  // j4, submitted a little later (planned after the reservations that stand), finds 150 s on
  // one node only after j2, at 350.
  HandBuiltView view(tiny_cluster(4, 4));
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), 1000);
  start_scenario(conservative, view);
  std::vector<Job> jobs = queued_jobs();
  const Job j4 = jobs.back();
  jobs.pop_back();
  CHECK(view.submit(conservative, 0, jobs).empty());
  CHECK(view.submit(conservative, 10, {j4}).empty());
  CHECK(view.finish(conservative, 100, 0) == Ids{3});
  CHECK(view.finish(conservative, 200, 3).empty());
  CHECK(view.finish(conservative, 300, 1) == Ids{2});
  CHECK(view.finish(conservative, 350, 2) == Ids{4});
}

TEST_CASE("conservative backfilling starts a later job at once when it delays no reservation")
{
  // As above, but j4 needs only 100 s: on node 2 or 3 it ends at 100, when j3's reservation begins.
  HandBuiltView view(tiny_cluster(4, 4));
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), 1000);
  start_scenario(conservative, view);
  std::vector<Job> jobs = queued_jobs();
  jobs[2].duration_s = 100;
  CHECK(view.submit(conservative, 0, jobs) == Ids{4});
  CHECK(view.finish(conservative, 100, 0).empty()); // j4 has not ended yet: any moment now
  CHECK(view.finish(conservative, 100, 4) == Ids{3});
}

TEST_CASE("conservative backfilling plans a job held back from the queue behind the jobs planned before it came")
{
  // r0 and r1 hold nodes 0 and 1; j5 wants all four nodes and is reserved at 300. Jobs 3 and 4,
  // submitted before j5 but held back by their start overhead, come later: each is planned behind
  // j5. j3 (100 s) ends before 300, so it starts at once; j4 (400 s) would delay j5, so it waits.
  HandBuiltView view(tiny_cluster(4, 4));
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), 1000);
  REQUIRE(view.submit(conservative, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 8, 300)}) == Ids{0, 1});
  CHECK(view.submit(conservative, 0, {make_job(5, 0, 32, 50)}).empty());
  CHECK(view.submit(conservative, 10, {make_job(3, 0, 8, 100)}) == Ids{3});
  CHECK(view.submit(conservative, 20, {make_job(4, 0, 8, 400)}).empty());
}

TEST_CASE("free-GPU timeline: the fewest free GPUs over a window, gains before losses at one time")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FreeGpuTimeline timeline(view.cluster(), 0);
  const Allocation node0{{{0, 8}}};
  timeline.hold(node0, 0, 100);          // busy now until 100
  timeline.hold(Allocation{{{0, 4}}}, 100, 200); // half of it reserved from 100 to 200
  CHECK(timeline.min_free(0, 0, 50) == 0);
  CHECK(timeline.min_free(0, 100, 150) == 4); // the release at 100 counts before the hold
  CHECK(timeline.min_free(0, 150, 300) == 4);
  CHECK(timeline.min_free(0, 200, 300) == 8);
  CHECK(timeline.min_free(1, 0, 1000) == 8);

  // A two-node job of 100 s: node 0 is wholly free from 200 only.
  const auto whole = timeline.earliest(16, 100);
  REQUIRE(whole);
  CHECK(whole->start == 200);
  CHECK(whole->allocation.node_count() == 2);
  // A 4-GPU job goes on node 1 now; then a 6-GPU job of 300 s waits for node 0 at 200 (node 1
  // keeps only 4 free until the 4-GPU job ends at 500).
  const auto small = timeline.earliest(4, 500);
  REQUIRE(small);
  CHECK(small->start == 0);
  timeline.hold(small->allocation, 0, 500);
  const auto medium = timeline.earliest(6, 300);
  REQUIRE(medium);
  CHECK(medium->start == 200);
  CHECK(medium->allocation.parts.front().node == 0);
}

TEST_CASE("free-GPU timeline: after the present moves, wholly free stretches begin at the new present")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FreeGpuTimeline timeline(view.cluster(), 0);
  timeline.hold(Allocation{{{1, 8}}}, 100, 200); // node 1 reserved over [100, 200)
  const auto at_zero = timeline.earliest(16, 80);
  REQUIRE(at_zero);
  CHECK(at_zero->start == 0); // both nodes free over [0, 80)
  // At 50, 80 s on both nodes would run into node 1's reservation: not before 200.
  timeline.advance_to(50);
  const auto at_fifty = timeline.earliest(16, 80);
  REQUIRE(at_fifty);
  CHECK(at_fifty->start == 200);
}

TEST_CASE("free-GPU timeline: a hold or a release taken back leaves it as it was, even once its time has passed")
{
  HandBuiltView view(tiny_cluster(2, 2));
  FreeGpuTimeline timeline(view.cluster(), 0);
  const Allocation half{{{0, 4}}}, node1{{{1, 8}}};
  timeline.hold(half, 100, 200);  // a reservation
  timeline.hold(node1, 0, 300);   // a running job, expected to end at 300
  CHECK(timeline.min_free(0, 100, 150) == 4);
  CHECK(timeline.min_free(1, 0, 300) == 0);
  timeline.advance_to(150); // the reservation's start is past now, folded into what is free now
  CHECK(timeline.min_free(0, 150, 160) == 4);
  timeline.unhold(half, 100, 200);
  CHECK(timeline.min_free(0, 150, 1000) == 8);
  // The running job ends early, at 150: its release moves from 300 to now.
  timeline.take_back(node1, 300);
  CHECK(timeline.min_free(1, 150, 1000) == 0);
  timeline.release(node1, 150);
  CHECK(timeline.min_free(1, 150, 1000) == 8);
  const auto slot = timeline.earliest(16, 50); // both nodes, now
  REQUIRE(slot);
  CHECK(slot->start == 150);
  CHECK(slot->allocation.node_count() == 2);
  // Taking back what was never given is a fault in the caller, not a silent change.
  CHECK_THROWS_AS(timeline.take_back(Allocation{{{0, 2}}}, 400), std::logic_error);
}

TEST_CASE("free-GPU timeline: whether a job may start now agrees with the earliest start it gets")
{
  // Random reservations on both pod shapes, the present moving on; for a job of any size and
  // length, may_start_now is true whenever the earliest start is now, and for a one-node job only
  // then.
  std::mt19937 random(7);
  for (const ClusterSpec& spec : {tiny_cluster(5, 5), acmesim::testing::two_pod_cluster()}) {
    HandBuiltView view(spec);
    FreeGpuTimeline timeline(view.cluster(), 0);
    int now_count = 0;
    double present = 0;
    for (int step = 0; step < 400; ++step) {
      timeline.advance_to(present += 20);
      const int gpus = std::uniform_int_distribution<int>(1, 24)(random);
      const double duration = std::uniform_int_distribution<int>(1, 20)(random) * 10.0;
      const auto slot = timeline.earliest(gpus, duration);
      const bool now = slot && slot->start == present;
      const auto whole_nodes_in = [gpus](const PodSpec& pod) { return job_shape(gpus, pod.gpus_per_node).whole_nodes; };
      const bool one_node = std::none_of(spec.pods.begin(), spec.pods.end(), whole_nodes_in);
      INFO("step " << step << ": " << gpus << " GPUs for " << duration << " s");
      if (now || one_node)
        CHECK(timeline.may_start_now(gpus, duration) == now);
      now_count += now ? 1 : 0;
      if (slot && step % 2 == 0) // reserve every other one, as a plan would
        timeline.hold(slot->allocation, slot->start, slot->start + duration);
    }
    CHECK(now_count > 20); // jobs could start now, and others could not
    CHECK(now_count < 380);
  }
}

namespace {

// The earliest slot worked out the slow way: at now and at every time GPUs are given back, in
// order, each node's fewest free GPUs over the window; the tightest node for one-node jobs, the
// lowest wholly free nodes for whole-node jobs, the lower pod on a tie. What earliest() answers.
std::optional<FreeGpuTimeline::Slot> earliest_by_hand(const FreeGpuTimeline& timeline, const Topology& topology,
                                                      const std::set<double>& gains, double now, int gpus,
                                                      double duration)
{
  std::vector<double> starts{now};
  starts.insert(starts.end(), gains.upper_bound(now), gains.end());
  std::optional<FreeGpuTimeline::Slot> best;
  for (int pod = 0; pod < static_cast<int>(topology.pod_count()); ++pod) {
    const PodSpec& spec = topology.spec().pods[static_cast<std::size_t>(pod)];
    const JobShape shape = job_shape(gpus, spec.gpus_per_node);
    for (const double start : starts) {
      if (best && start >= best->start)
        break;
      Allocation allocation;
      int tightest = std::numeric_limits<int>::max();
      for (NodeId node = topology.first_node_of_pod(pod); node < topology.first_node_of_pod(pod) + spec.nodes; ++node) {
        const int free = timeline.min_free(node, start, start + duration);
        if (shape.whole_nodes && free == spec.gpus_per_node && allocation.node_count() < shape.nodes)
          allocation.parts.push_back({node, spec.gpus_per_node});
        if (!shape.whole_nodes && free >= gpus && free < tightest) {
          tightest = free;
          allocation = Allocation{{{node, gpus}}};
        }
      }
      if (allocation.node_count() == shape.nodes) {
        best = FreeGpuTimeline::Slot{start, allocation};
        break;
      }
    }
  }
  return best;
}

} // namespace

TEST_CASE("free-GPU timeline: the earliest slot is the one found by trying every start on every node")
{
  // Random reservations on both pod shapes with the present moving on, so that the stretch
  // indexes are brought up to date after holds, after the present moved, and level by level as
  // job sizes are first asked about. Once on round times, once on times that round: late in a
  // run, with a few fractional durations that recur (as identical jobs do), a stretch's length
  // and a window's end round differently, and the window is what counts. (Whole-node jobs on
  // rounding times are left out: their stretches are measured by length, as they always were.)
  struct Times {
    double start, step, duration_unit;
    int most_gpus;
  };
  std::mt19937 random(11);
  for (const Times times : {Times{0, 10, 10, 40}, Times{3626698.7941741925, 10.37, 1109.0061946942517, 8}})
  for (const ClusterSpec& spec : {tiny_cluster(6, 6), acmesim::testing::two_pod_cluster()}) {
    HandBuiltView view(spec);
    FreeGpuTimeline timeline(view.cluster(), times.start);
    std::set<double> gains;
    double present = times.start;
    int later = 0;
    for (int step = 0; step < 300; ++step) {
      if (step % 3 == 0)
        timeline.advance_to(present += times.step);
      const int gpus = std::uniform_int_distribution<int>(1, times.most_gpus)(random);
      const double duration = std::uniform_int_distribution<int>(1, 30)(random) * times.duration_unit;
      INFO("step " << step << ": " << gpus << " GPUs for " << duration << " s at " << present);
      const auto slot = timeline.earliest(gpus, duration);
      const auto by_hand = earliest_by_hand(timeline, view.topology(), gains, present, gpus, duration);
      REQUIRE(slot.has_value() == by_hand.has_value());
      if (!slot)
        continue;
      REQUIRE(slot->start == by_hand->start);
      REQUIRE(slot->allocation.node_count() == by_hand->allocation.node_count());
      for (std::size_t k = 0; k < slot->allocation.parts.size(); ++k) {
        CHECK(slot->allocation.parts[k].node == by_hand->allocation.parts[k].node);
        CHECK(slot->allocation.parts[k].gpus == by_hand->allocation.parts[k].gpus);
      }
      later += slot->start > present ? 1 : 0;
      timeline.hold(slot->allocation, slot->start, slot->start + duration);
      gains.insert(slot->start + duration);
    }
    CHECK(later > 100); // most slots lie ahead, where the indexes answer
  }
}

namespace {

// Steps through time as the simulation would: at each instant, the jobs ending then, told in one
// call (`on_ends(now, ids)`), then those arriving (`on_arrivals(now, jobs)`), then
// `after_instant(now)`. The callers put the jobs they start into `ends`.
template <typename OnEnds, typename OnArrivals, typename AfterInstant>
void step_through(std::multimap<double, Job>& arrivals, std::multimap<double, JobId>& ends, OnEnds on_ends,
                  OnArrivals on_arrivals, AfterInstant after_instant)
{
  while (!arrivals.empty() || !ends.empty()) {
    const double never = std::numeric_limits<double>::infinity();
    const double now = std::min(arrivals.empty() ? never : arrivals.begin()->first,
                                ends.empty() ? never : ends.begin()->first);
    std::vector<JobId> ending;
    for (auto end = ends.begin(); end != ends.end() && end->first == now; end = ends.erase(end))
      ending.push_back(end->second);
    if (!ending.empty())
      on_ends(now, ending);
    std::vector<Job> batch;
    for (auto it = arrivals.begin(); it != arrivals.end() && it->first == now; it = arrivals.erase(it))
      batch.push_back(it->second);
    if (!batch.empty())
      on_arrivals(now, batch);
    after_instant(now);
  }
}

// Runs random jobs through two schedulers at once, ending each job at its true run time, and
// requires the same decisions of both at every step. Jobs are given out of id order now and
// then (a start overhead held them back), and their estimates are requested times: half right,
// the others short (jobs that end late) or long (early). Now and then a running job is
// interrupted and queued again, and node 1 is out of service from 500 s to 1,500 s. Jobs ending
// at one time are told in one call. After every step each queued job must hold the same
// reservation in both; and reservations must have moved sooner (compressions) now and then.
void require_same_decisions(HandBuiltView& view_a, ConservativeBackfillScheduler& a, HandBuiltView& view_b,
                            ConservativeBackfillScheduler& b, unsigned seed)
{
  std::mt19937 random(seed);
  for (HandBuiltView* view : {&view_a, &view_b})
    view->estimates_model.model = EstimateModel::Requested;
  std::multimap<double, Job> arrivals;
  const int sizes[] = {1, 1, 2, 4, 8, 8, 16, 24, 32};
  double submit = 0;
  for (JobId id = 0; id < 300; ++id) {
    submit += std::uniform_int_distribution<int>(0, 3)(random) * 5.0;
    Job job = make_job(id, submit, sizes[std::uniform_int_distribution<int>(0, 8)(random)],
                       std::uniform_int_distribution<int>(1, 60)(random) * 10.0);
    const bool right = std::bernoulli_distribution(0.5)(random);
    job.requested_s = job.duration_s * (right ? 1 : std::uniform_real_distribution<double>(0.5, 3)(random));
    const double held_back = std::bernoulli_distribution(0.2)(random) ? 50 : 0;
    arrivals.emplace(submit + held_back, job);
  }
  std::multimap<double, JobId> ends;
  std::size_t finished = 0;
  std::map<JobId, double> reserved; // as the last step left them
  std::size_t moved_sooner = 0;
  const auto check_same = [&](const std::vector<JobId>& from_a, const std::vector<JobId>& from_b, double now) {
    INFO("at " << now);
    REQUIRE(from_a == from_b);
    REQUIRE(view_a.queue() == view_b.queue());
    std::map<JobId, double> now_reserved;
    for (const JobId id : view_a.queue()) {
      REQUIRE(a.reserved_start(id) == b.reserved_start(id));
      if (const std::optional<double> at = a.reserved_start(id)) {
        now_reserved[id] = *at;
        const auto before = reserved.find(id);
        moved_sooner += before != reserved.end() && *at < before->second ? 1 : 0;
      }
    }
    reserved.swap(now_reserved);
    for (const JobId id : from_a) {
      for (std::size_t k = 0; k < view_a.allocation(id).parts.size(); ++k) {
        REQUIRE(view_a.allocation(id).parts[k].node == view_b.allocation(id).parts.at(k).node);
        REQUIRE(view_a.allocation(id).parts[k].gpus == view_b.allocation(id).parts.at(k).gpus);
      }
      ends.emplace(now + view_a.job(id).duration_s, id);
    }
  };
  const auto tell_both = [&](double now, const SchedulerEvent& event) {
    check_same(view_a.decide(a, now, {event}), view_b.decide(b, now, {event}), now);
  };
  int step = 0;
  bool node_down = false;
  const auto on_ends = [&](double now, const std::vector<JobId>& ending) {
    check_same(view_a.finish(a, now, ending), view_b.finish(b, now, ending), now);
    finished += ending.size();
  };
  const auto on_arrivals = [&](double now, const std::vector<Job>& batch) {
    check_same(view_a.submit(a, now, batch), view_b.submit(b, now, batch), now);
  };
  step_through(arrivals, ends, on_ends, on_arrivals, [&](double now) {
    if (++step % 23 == 0 && !ends.empty() && !arrivals.empty()) {
      const JobId id = ends.begin()->second; // interrupted: it starts over when it starts again
      ends.erase(ends.begin());
      view_a.requeue_job(id);
      view_b.requeue_job(id);
      tell_both(now, {EventKind::JobRequeued, now, id});
    }
    if (node_down != (now >= 500 && now < 1500)) {
      node_down = !node_down;
      for (HandBuiltView* view : {&view_a, &view_b})
        node_down ? view->take_down(1) : view->bring_up(1);
      tell_both(now, {node_down ? EventKind::NodeDown : EventKind::NodeUp, now, 0, 1});
    }
  });
  CHECK(finished == 300);
  CHECK(moved_sooner > 10);
}

} // namespace

TEST_CASE("conservative backfilling compresses a kept plan as one built anew and looking at every reservation does")
{
  // Jobs end early, on time and late; the kept timeline looks again only at the reservations that
  // freed GPUs could bring forward.
  using Bookkeeping = ConservativeBackfillScheduler::Bookkeeping;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const int depth = seed % 2 == 0 ? 1000 : 10;
    for (const ClusterSpec& spec : {tiny_cluster(6, 3), acmesim::testing::two_pod_cluster()}) {
      INFO("seed " << seed << ", depth " << depth << ", cluster of " << spec.pods.size() << " pods");
      HandBuiltView view_a(spec), view_b(spec);
      ConservativeBackfillScheduler kept(view_a.topology(), std::make_unique<PackPlacement>(), depth);
      ConservativeBackfillScheduler fresh(view_b.topology(), std::make_unique<PackPlacement>(), depth,
                                          Bookkeeping::Fresh);
      require_same_decisions(view_a, kept, view_b, fresh, seed);
    }
  }
}

namespace {

// How the jobs of a random queue started against the first reservation each was given: at it,
// sooner, or later. Each job ends at its run time; estimates are right or, with `long_estimates`,
// up to three times the run time.
struct AgainstFirstReservation {
  std::size_t started = 0, at = 0, sooner = 0, later = 0;
};
AgainstFirstReservation run_against_first_reservation(const ClusterSpec& spec, int depth, bool long_estimates,
                                                      ConservativeBackfillScheduler::AtJobEnd at_job_end)
{
  HandBuiltView view(spec);
  view.estimates_model.model = EstimateModel::Requested;
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), depth,
                                             ConservativeBackfillScheduler::Bookkeeping::Kept, at_job_end);
  std::mt19937 random(depth);
  const int sizes[] = {1, 2, 4, 8, 8, 16, 24, 32};
  std::multimap<double, Job> arrivals;
  double submit = 0;
  for (JobId id = 0; id < 300; ++id) {
    submit += std::uniform_int_distribution<int>(0, 3)(random) * 5.0;
    Job job = make_job(id, submit, sizes[std::uniform_int_distribution<int>(0, 7)(random)],
                       std::uniform_int_distribution<int>(1, 60)(random) * 10.0);
    job.requested_s = job.duration_s * (long_estimates ? std::uniform_real_distribution<double>(1, 3)(random) : 1);
    arrivals.emplace(submit, job);
  }
  std::map<JobId, double> first_reserved;
  std::multimap<double, JobId> ends;
  AgainstFirstReservation counts;
  const auto after = [&](const std::vector<JobId>& starts, double now) {
    for (const JobId id : starts) {
      ++counts.started;
      ends.emplace(now + view.job(id).duration_s, id);
      const auto reserved = first_reserved.find(id);
      if (reserved != first_reserved.end())
        ++(now == reserved->second ? counts.at : now < reserved->second ? counts.sooner : counts.later);
    }
    for (const JobId id : view.queue())
      if (const std::optional<double> at = conservative.reserved_start(id))
        first_reserved.emplace(id, *at);
  };
  step_through(
      arrivals, ends,
      [&](double now, const std::vector<JobId>& ending) { after(view.finish(conservative, now, ending), now); },
      [&](double now, const std::vector<Job>& batch) { after(view.submit(conservative, now, batch), now); },
      [](double) {});
  return counts;
}

} // namespace

TEST_CASE("conservative backfilling starts no job later than its first reservation while no job runs late")
{
  // With every estimate right no reservation may move, even as later jobs start on nodes the
  // placement policy picks: each job ever reserved starts at the time it was first given. With
  // estimates up to three times too long, jobs end early and the plan is compressed:
  // reservations only move sooner. A shallow depth too: jobs beyond it are planned as reserved
  // ones start, in the same pass.
  using AtJobEnd = ConservativeBackfillScheduler::AtJobEnd;
  for (const bool long_estimates : {false, true})
    for (const int depth : {1000, 10})
      for (const ClusterSpec& spec : {tiny_cluster(6, 3), acmesim::testing::two_pod_cluster()}) {
        INFO("depth " << depth << (long_estimates ? ", estimates long" : ", estimates right") << ", "
                      << spec.pods.size() << " pods");
        const auto counts = run_against_first_reservation(spec, depth, long_estimates, AtJobEnd::Compress);
        CHECK(counts.started == 300);
        CHECK(counts.later == 0);
        if (long_estimates) {
          CHECK(counts.sooner > 50); // the compressions moved many
        } else {
          CHECK(counts.sooner == 0);
          CHECK(counts.at > 100); // most jobs waited for a reservation
        }
      }
}

TEST_CASE("conservative backfilling asked to work the plan out anew at every job end may start a job later")
{
  // scheduler.replan_every_end: a job due at its reservation goes where the placement policy puts
  // it, and may take nodes a later job held, even with every estimate right.
  const auto counts = run_against_first_reservation(tiny_cluster(6, 3), 1000, false,
                                                    ConservativeBackfillScheduler::AtJobEnd::Replan);
  CHECK(counts.started == 300);
  CHECK(counts.later > 0);
}

TEST_CASE("conservative backfilling plans a job beyond its depth once a reserved job starts on time")
{
  // Depth 1: j1 (the whole cluster, 50 s) holds the one reservation, at 100, and j2 is not planned,
  // though it would fit on the free node now. When r0 ends on time, j1 starts on its reservation
  // and j2 is planned in the same pass: at 150.
  HandBuiltView view(tiny_cluster(4, 4));
  ConservativeBackfillScheduler conservative(view.topology(), std::make_unique<PackPlacement>(), 1);
  REQUIRE(view.submit(conservative, 0, {make_job(0, 0, 24, 100)}) == Ids{0});
  CHECK(view.submit(conservative, 0, {make_job(1, 0, 32, 50), make_job(2, 0, 8, 10)}).empty());
  CHECK(conservative.reserved_start(1).value_or(-1) == 100);
  CHECK(!conservative.reserved_start(2));
  CHECK(view.finish(conservative, 100, 0) == Ids{1});
  CHECK(conservative.reserved_start(2).value_or(-1) == 150);
  CHECK(view.finish(conservative, 150, 1) == Ids{2});
}
