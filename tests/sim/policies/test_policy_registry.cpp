// Every registered policy is built from its name with its declared defaults and does its job on a
// tiny cluster: what `acmesim list` shows is what a scenario can run.
#include "sim/policies/Registries.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

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

TEST_CASE("every declared parameter has help and passes the checks plugins are loaded with")
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
    CHECK(declaration_problems(*info).empty());
  }
}

TEST_CASE("the declaration check names each fault of a parameter: range, non-number, fraction, name")
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  PolicyInfo info{"p", "help",
                  {{"a", "", 1, 0, 10, true},   // fine
                   {"b", "", 5, 10, 1, false},  // min above max
                   {"c", "", 11, 0, 10, false}, // default above max
                   {"d", "", 0.5, 0, 1, true},  // a fraction for an integer
                   {"e", "", nan, 0, 1, false},
                   {"f", "", 0, -inf, 1, false},
                   {"a", "", 1, 0, 10, true},   // twice
                   {"", "", 0, 0, 1, false}}};
  CHECK(declaration_problems(info) ==
        std::vector<std::string>{"parameter 'b': min 10 is above max 1", "parameter 'c': default 11 is outside [0, 10]",
                                 "parameter 'd': an integer parameter with the default 0.5",
                                 "parameter 'e': default is nan, not a finite number",
                                 "parameter 'f': min is -inf, not a finite number",
                                 "parameter 'a': declared more than once", "a parameter has an empty name"});
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
