// The multifactor scheduler on hand-built queues: each priority factor on a case worked out by
// hand, and EASY backfilling in priority order.
#include "sim/policies/MultifactorScheduler.hpp"
#include "sim/policies/Placements.hpp"
#include "sim/policies/Registries.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace acmesim;
using acmesim::testing::HandBuiltView;
using acmesim::testing::make_job;
using acmesim::testing::named_scheduler;
using acmesim::testing::tiny_cluster;

namespace {

using Ids = std::vector<JobId>;

Job job_of(JobId id, double submit_s, int gpus, double duration_s, const std::string& user,
           JobType type = JobType::Other)
{
  Job j = make_job(id, submit_s, gpus, duration_s, type);
  j.user = user;
  return j;
}

// Only the fair-share factor counts.
MultifactorScheduler fair_share_only(const Topology& topology, double half_life_s)
{
  MultifactorWeights w;
  w.fair_share = 1;
  w.half_life_s = half_life_s;
  w.max_age_s = 1;
  w.calc_period_s = 300;
  return MultifactorScheduler(topology, std::make_unique<PackPlacement>(), 1000, w);
}

// One node of 8 GPUs. User B trains on it over [0, 1000], then user A over [1000, 1500]; at 1500
// both ask for the whole node again, B first.
Ids who_goes_first_after_history(MultifactorScheduler& s, HandBuiltView& view)
{
  REQUIRE(view.submit(s, 0, {job_of(0, 0, 8, 1000, "B"), job_of(1, 0, 8, 500, "A")}) == Ids{0});
  REQUIRE(view.finish(s, 1000, 0) == Ids{1});
  REQUIRE(view.finish(s, 1500, 1).empty());
  return view.submit(s, 1500, {job_of(2, 1500, 8, 10, "B"), job_of(3, 1500, 8, 10, "A")});
}

} // namespace

// Usage decays with half-life h: at 1500, B's 8 GPUs over [0, 1000] count
// 8 h / ln 2 (2^(-500/h) - 2^(-1500/h)) and A's over [1000, 1500] 8 h / ln 2 (1 - 2^(-500/h)).
// Two users, equal shares (S = 1/2): factor 2^(-2 U / (U_A + U_B)).
static void check_history(double h, JobId first)
{
  HandBuiltView view(tiny_cluster(1, 1));
  MultifactorScheduler s = fair_share_only(view.topology(), h);
  CHECK(who_goes_first_after_history(s, view) == Ids{first});
  const double b = std::exp2(-500 / h) - std::exp2(-1500 / h);
  const double a = 1 - std::exp2(-500 / h);
  CHECK(s.fair_share("B") == Approx(std::exp2(-2 * b / (a + b))));
  CHECK(s.fair_share("A") == Approx(std::exp2(-2 * a / (a + b))));
}

TEST_CASE("multifactor: fair share puts first the user with less decayed usage, as the half-life decides")
{
  SECTION("half-life 1000 s: B's longer use still weighs more, A goes first") { check_history(1000, 3); }
  SECTION("half-life 100 s: B's use has mostly decayed, B goes first") { check_history(100, 2); }
  SECTION("a user with no usage has factor 1, and so does everyone before any use")
  {
    HandBuiltView view(tiny_cluster(1, 1));
    MultifactorScheduler s = fair_share_only(view.topology(), 1000);
    CHECK(s.fair_share("A") == 1);
    view.submit(s, 0, {job_of(0, 0, 8, 100, "B"), job_of(1, 0, 8, 100, "C")});
    view.finish(s, 100, 0);
    CHECK(s.fair_share("C") == 1);
    CHECK(s.fair_share("B") < 1);
  }
}

TEST_CASE("multifactor with its defaults: pretraining queued later starts before evaluation queued earlier")
{
  HandBuiltView view(tiny_cluster(1, 1));
  const auto s = make_scheduler(named_scheduler("multifactor"), view.topology(), 1);
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 8, 10, JobType::Eval)}) == Ids{0});
  CHECK(view.submit(*s, 50, {make_job(2, 50, 8, 10, JobType::Pretrain)}).empty());
  CHECK(view.finish(*s, 100, 0) == Ids{2});
  CHECK(view.finish(*s, 110, 2) == Ids{1});
}

TEST_CASE("multifactor: the age factor grows with time queued and stops at max_age_s")
{
  HandBuiltView view(tiny_cluster(1, 1));
  MultifactorWeights w;
  w.age = 10;
  w.max_age_s = 1000;
  w.half_life_s = 1000;
  w.calc_period_s = 300;
  MultifactorScheduler s(view.topology(), std::make_unique<PackPlacement>(), 1000, w);
  view.submit(s, 0, {make_job(0, 0, 8, 5000)});
  view.submit(s, 100, {make_job(1, 100, 8, 10)});
  view.decide(s, 600, {});
  CHECK(s.priority(view, 1) == Approx(10 * 500.0 / 1000));
  view.decide(s, 4000, {});
  CHECK(s.priority(view, 1) == Approx(10));
}

// Two nodes. j0 holds node0 until 100. At 10 three jobs arrive: j1 (evaluation, 8 GPUs, 50 s),
// j2 (pretraining, both nodes), j3 (debug, 8 GPUs, 50 s). By priority: j2, j3, j1. j2 does not
// fit and is reserved at 100 on both nodes; j3 ends at 60 <= 100 and takes node1; nothing is left
// for j1. In submission order j1 would have had node1.
TEST_CASE("multifactor backfills in priority order around the reservation of the first job that does not fit")
{
  HandBuiltView view(tiny_cluster(2, 2));
  const auto s = make_scheduler(named_scheduler("multifactor"), view.topology(), 1);
  CHECK(view.submit(*s, 0, {make_job(0, 0, 8, 100)}) == Ids{0});
  CHECK(view.submit(*s, 10,
                    {make_job(1, 10, 8, 50, JobType::Eval), make_job(2, 10, 16, 100, JobType::Pretrain),
                     make_job(3, 10, 8, 50, JobType::Debug)}) == Ids{3});
  // At 60 node1 is free, but j1 would run to 110 on a node j2 needs at 100: it waits.
  CHECK(view.finish(*s, 60, 3).empty());
  CHECK(view.finish(*s, 100, 0) == Ids{2});
  CHECK(view.finish(*s, 200, 2) == Ids{1});
}

TEST_CASE("multifactor declares a QoS parameter for every job type, named after it")
{
  const PolicyInfo* info = scheduler_registry().find("multifactor");
  REQUIRE(info != nullptr);
  for (const JobType type : enum_values<JobType>()) {
    std::string name = "qos_";
    for (const char c : to_string(type))
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    INFO(name);
    CHECK(std::count_if(info->params.begin(), info->params.end(), [&](const ParamSpec& p) { return p.name == name; }) ==
          1);
  }
}
