// Every registered policy is built from its name with its declared defaults and does its job on a
// tiny cluster: what `acmesim list` shows is what a scenario can run.
#include "sim/policies/Registries.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using acmesim::testing::HandBuiltView;
using acmesim::testing::make_job;
using acmesim::testing::named_scheduler;
using acmesim::testing::tiny_cluster;

TEST_CASE("every registered scheduler, with every placement, starts a job that fits on an idle cluster")
{
  REQUIRE(scheduler_registry().names().size() >= 4);
  REQUIRE(placement_registry().names().size() >= 3);
  for (const auto& name : scheduler_registry().names())
    for (const auto& placement : placement_registry().names()) {
      INFO(name << " with " << placement);
      HandBuiltView view(tiny_cluster(2, 2));
      const auto scheduler = make_scheduler(named_scheduler(name, placement), view.topology(), 7);
      REQUIRE(scheduler != nullptr);
      const auto started = view.submit(*scheduler, 0, {make_job(0, 0, 8, 100), make_job(1, 0, 4, 100)});
      CHECK(started == std::vector<JobId>{0, 1});
    }
}

TEST_CASE("every registered recovery policy is built with its declared defaults")
{
  REQUIRE(recovery_registry().names().size() >= 3);
  for (const PolicyInfo* info : recovery_registry().policies()) {
    INFO(info->name);
    const auto policy = make_recovery_policy(RecoverySpec{info->name, {}});
    REQUIRE(policy != nullptr);
    for (const auto& param : info->params)
      if (param.name == "max_restarts")
        CHECK(policy->max_restarts() == static_cast<int>(param.default_value));
    CHECK(policy->resubmit_delay(12 * 3600) >= 0);
  }
}

TEST_CASE("every declared parameter has help and a default inside its range")
{
  std::vector<const PolicyInfo*> all = scheduler_registry().policies();
  for (const auto* p : placement_registry().policies())
    all.push_back(p);
  for (const auto* p : recovery_registry().policies())
    all.push_back(p);
  for (const PolicyInfo* info : all) {
    INFO(info->name);
    CHECK_FALSE(info->help.empty());
    for (const auto& param : info->params) {
      INFO(param.name);
      CHECK_FALSE(param.help.empty());
      CHECK(param.default_value >= param.min_value);
      CHECK(param.default_value <= param.max_value);
    }
  }
}

TEST_CASE("a second policy of a registered name is refused, and an unknown name cannot be built")
{
  RecoveryRegistry registry;
  const auto factory = [](const PolicyParams&) -> std::unique_ptr<RecoveryPolicy> { return nullptr; };
  registry.add({"mine", "a test policy", {}}, factory);
  CHECK_THROWS_AS(registry.add({"mine", "again", {}}, factory), std::logic_error);
  CHECK_THROWS_AS(registry.make("other", {}), std::invalid_argument);
  const PolicyParams params({{"declared", 2}});
  CHECK(params.integer("declared") == 2);
  CHECK_THROWS_AS(params.number("undeclared"), std::logic_error);
}
