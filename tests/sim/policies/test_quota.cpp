// The quota scheduler on hand-built queues: reclaiming reserved GPUs by preempting borrowers (which
// ones, how many), waiting for them instead, and priorities between classes.
#include "sim/policies/Placements.hpp"
#include "sim/policies/QuotaScheduler.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::HandBuiltView;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

namespace {

using Ids = std::vector<JobId>;

// Pretraining reserves half of each pod, SFT a quarter; pretraining goes first, evaluation last.
QuotaRules rules(bool reclaim = true)
{
  QuotaRules r;
  r.reserved_share[static_cast<std::size_t>(JobType::Pretrain)] = 0.5;
  r.reserved_share[static_cast<std::size_t>(JobType::SFT)] = 0.25;
  r.priority[static_cast<std::size_t>(JobType::Pretrain)] = 2;
  r.priority[static_cast<std::size_t>(JobType::SFT)] = 1;
  r.priority[static_cast<std::size_t>(JobType::Other)] = 1;
  r.reclaim_by_preemption = reclaim;
  return r;
}

QuotaScheduler quota(const Topology& topology, QuotaRules r = rules())
{
  return QuotaScheduler(topology, std::make_unique<PackPlacement>(), 1000, r);
}

// Four nodes of 8 GPUs filled by three evaluation jobs and one other job, all 8 GPUs.
void fill(QuotaScheduler& s, HandBuiltView& view)
{
  REQUIRE(view.submit(s, 0,
                      {make_job(0, 0, 8, 1000, JobType::Eval), make_job(1, 0, 8, 1000, JobType::Eval),
                       make_job(2, 0, 8, 1000, JobType::Other)}) == Ids{2, 0, 1}); // by priority
  REQUIRE(view.submit(s, 10, {make_job(3, 10, 8, 1000, JobType::Eval)}) == Ids{3});
}

} // namespace

TEST_CASE("quota: reservations are the floor of each class's share of the pod's GPUs")
{
  HandBuiltView view(tiny_cluster(5, 5)); // 40 GPUs
  QuotaScheduler s = quota(view.topology());
  CHECK(s.reserved(0, JobType::Pretrain) == 20);
  CHECK(s.reserved(0, JobType::SFT) == 10);
  CHECK(s.reserved(0, JobType::Eval) == 0);
}

TEST_CASE("quota: an owner preempts borrowers, lowest priority and latest started first, only as many as it needs")
{
  HandBuiltView view(tiny_cluster(4, 4));
  QuotaScheduler s = quota(view.topology());
  fill(s, view);
  CHECK(s.used(0, JobType::Eval) == 24);

  // Pretraining owns 16 GPUs and holds none: its 16-GPU job reclaims two nodes. Evaluation, the
  // lowest class, lends first: j3 (started last), then j1 (of those started at 0, the higher id).
  CHECK(view.submit(s, 20, {make_job(4, 20, 16, 500, JobType::Pretrain)}) == Ids{4});
  CHECK(view.preempted == Ids{3, 1});
  CHECK(view.is_queued(3));
  CHECK(view.is_queued(1));
  CHECK(view.is_running(0));
  CHECK(view.is_running(2)); // the other job (priority 1) kept its GPUs
  CHECK(s.used(0, JobType::Pretrain) == 16);
  CHECK(s.used(0, JobType::Eval) == 8);

  // When the pretraining job ends, the preempted jobs start again, in submission order.
  CHECK(view.finish(s, 520, 4) == Ids{1, 3});
}

TEST_CASE("quota: jobs beyond their class's reservation never preempt")
{
  HandBuiltView view(tiny_cluster(4, 4));
  QuotaScheduler s = quota(view.topology());
  fill(s, view);
  // Evaluation reserves nothing; a 24-GPU pretraining job is more than its 16 reserved GPUs.
  CHECK(view.submit(s, 20, {make_job(4, 20, 8, 100, JobType::Eval)}).empty());
  CHECK(view.submit(s, 30, {make_job(5, 30, 24, 100, JobType::Pretrain)}).empty());
  CHECK(view.preempted.empty());
}

TEST_CASE("quota: a job within its reservation takes no GPUs from a class that holds no more than its own")
{
  HandBuiltView view(tiny_cluster(4, 4));
  QuotaScheduler s = quota(view.topology());
  // SFT holds 8 GPUs, its reservation; evaluation fills the rest.
  REQUIRE(view.submit(s, 0, {make_job(0, 0, 8, 1000, JobType::SFT)}) == Ids{0});
  REQUIRE(view.submit(s, 5, {make_job(1, 5, 24, 1000, JobType::Eval)}) == Ids{1});
  // 16 pretraining GPUs: only the evaluation job lends, and it is the one preempted.
  CHECK(view.submit(s, 10, {make_job(2, 10, 16, 100, JobType::Pretrain)}) == Ids{2});
  CHECK(view.preempted == Ids{1});
  CHECK(view.is_running(0));
}

TEST_CASE("quota with reclaim 0: the owner waits for borrowers, holding EASY's reservation")
{
  HandBuiltView view(tiny_cluster(4, 4));
  QuotaScheduler s = quota(view.topology(), rules(false));
  REQUIRE(view.submit(s, 0,
                      {make_job(0, 0, 8, 100, JobType::Eval), make_job(1, 0, 8, 200, JobType::Eval),
                       make_job(2, 0, 8, 300, JobType::Eval), make_job(3, 0, 8, 400, JobType::Eval)}) ==
          Ids{0, 1, 2, 3});
  CHECK(view.submit(s, 10, {make_job(4, 10, 16, 500, JobType::Pretrain)}).empty());
  CHECK(view.preempted.empty());
  // At 100 j0's node frees; the pretraining job is reserved at 200, when j1's frees too. A long
  // evaluation job would still hold j0's node then; a short one ends by 200 and backfills.
  REQUIRE(view.submit(s, 50, {make_job(5, 50, 8, 500, JobType::Eval), make_job(6, 50, 8, 60, JobType::Eval)}).empty());
  CHECK(view.finish(s, 100, 0) == Ids{6});
  CHECK(view.finish(s, 160, 6).empty());
  CHECK(view.finish(s, 200, 1) == Ids{4});
}

TEST_CASE("quota: a class of higher priority starts first, whatever the submission order")
{
  HandBuiltView view(tiny_cluster(4, 4));
  QuotaScheduler s = quota(view.topology());
  fill(s, view);
  REQUIRE(view.submit(s, 20, {make_job(4, 20, 8, 100, JobType::Eval), make_job(5, 21, 8, 100, JobType::Debug)})
              .empty());
  // Debug (priority 0 here, as evaluation) waits behind the earlier evaluation job; Other goes first.
  REQUIRE(view.submit(s, 30, {make_job(6, 30, 8, 100, JobType::Other)}).empty());
  CHECK(view.finish(s, 1000, 0) == Ids{6});
  CHECK(view.finish(s, 1001, 1) == Ids{4});
  CHECK(view.finish(s, 1002, 2) == Ids{5});
}


TEST_CASE("quota: a user's jobs of a class hold at most its user limit; a lone job of any size may start")
{
  HandBuiltView view(tiny_cluster(6, 6)); // 48 GPUs, ample for every job below
  QuotaRules r = rules();
  r.user_gpus[static_cast<std::size_t>(JobType::Eval)] = 16;
  QuotaScheduler s = quota(view.topology(), r);
  const auto eval = [](JobId id, double t, int gpus, const std::string& user) {
    Job j = make_job(id, t, gpus, 100, JobType::Eval);
    j.user = user;
    return j;
  };
  // User a's batch of three 8-GPU evaluations: two start, the third waits for one of them though
  // 32 GPUs are free; user b's evaluation and a's other job (no limit for Other) start.
  Job other = make_job(3, 0, 8, 100, JobType::Other);
  other.user = "a";
  CHECK(view.submit(s, 0, {eval(0, 0, 8, "a"), eval(1, 0, 8, "a"), eval(2, 0, 8, "a"), other}) == Ids{3, 0, 1});
  CHECK(view.submit(s, 1, {eval(4, 1, 8, "b")}) == Ids{4});
  CHECK(view.is_queued(2));
  CHECK(view.finish(s, 100, 0) == Ids{2});
  // A job above the limit starts when its user holds nothing of the class: the limit spaces a
  // batch out, it does not forbid large jobs (three nodes are free once j1 ends).
  CHECK(view.finish(s, 110, 1).empty());
  CHECK(view.submit(s, 111, {eval(5, 111, 24, "c")}) == Ids{5});
}
