// Recovery policies by name (ManualRecovery.cpp, AutoRecovery.cpp), with parameters from the spec
// or, when a spec built in code leaves them out, from their registration.
#include "sim/policies/Registries.hpp"

#include "models/common/Text.hpp"

#include <catch2/catch.hpp>

#include <deque>
#include <stdexcept>

using namespace acmesim;

namespace {

constexpr double HOUR = 3600;
constexpr double DAY = 24 * HOUR;

std::unique_ptr<RecoveryPolicy> policy(const std::string& name, std::map<std::string, double> params = {})
{
  return make_recovery_policy(RecoverySpec{name, std::move(params)});
}

double catalogue_default(const std::string& policy_name, const std::string& param)
{
  const PolicyInfo* info = recovery_registry().find(policy_name);
  REQUIRE(info != nullptr);
  for (const auto& p : info->params)
    if (p.name == param)
      return p.default_value;
  FAIL("no parameter " << param << " in " << policy_name);
  return 0;
}

} // namespace

TEST_CASE("the recovery registry holds auto, auto+spares and manual, by name")
{
  CHECK(join_names(recovery_registry().names()) == "auto, auto+spares, manual");
  CHECK(recovery_registry().find("manual") != nullptr);
  CHECK(recovery_registry().find("auto") != nullptr);
  CHECK(recovery_registry().find("auto+spares") != nullptr);
  CHECK(recovery_registry().find("bogus") == nullptr);
}

TEST_CASE("manual recovery takes catalogue defaults for parameters the spec leaves out")
{
  // Defaults: person_delay_s 1800, night 22 -> 8, health_check_s 0, max_restarts 50.
  REQUIRE(catalogue_default("manual", "person_delay_s") == 1800);
  REQUIRE(catalogue_default("manual", "night_start_hour") == 22);
  REQUIRE(catalogue_default("manual", "night_end_hour") == 8);
  const auto manual = policy("manual");
  CHECK(manual->waits_for_person());
  CHECK_FALSE(manual->diagnoses());
  CHECK(manual->spare_nodes_per_pod() == 0);
  CHECK(manual->health_check_s() == 0);
  CHECK(manual->max_restarts() == 50);
  CHECK(manual->escalation_repair_s() == 0);
  CHECK(manual->escalation_window_s() == 0);
  CHECK_FALSE(manual->escalates({0, 1, 2, 3}));
  CHECK(manual->resubmit_delay(12 * HOUR) == 1800);
  CHECK(manual->resubmit_delay(23 * HOUR) == 9 * HOUR + 1800);

  // A default-constructed spec is manual too.
  const auto from_default_spec = make_recovery_policy(RecoverySpec{});
  CHECK(from_default_spec->waits_for_person());
  CHECK(from_default_spec->resubmit_delay(12 * HOUR) == 1800);
}

TEST_CASE("manual recovery uses the spec's parameters over the defaults")
{
  const auto manual = policy("manual", {{"person_delay_s", 600}, {"health_check_s", 30}, {"max_restarts", 3}});
  CHECK(manual->resubmit_delay(10 * HOUR) == 600);
  CHECK(manual->resubmit_delay(23 * HOUR) == 9 * HOUR + 600); // night still 22 -> 8 by default
  CHECK(manual->health_check_s() == 30);
  CHECK(manual->max_restarts() == 3);
}

TEST_CASE("manual recovery across a night that wraps around midnight")
{
  const auto manual =
      policy("manual", {{"person_delay_s", 1000}, {"night_start_hour", 22}, {"night_end_hour", 8}});
  // Working hours: only the person's delay.
  CHECK(manual->resubmit_delay(8 * HOUR) == 1000); // people are back at 08:00 sharp
  CHECK(manual->resubmit_delay(12 * HOUR) == 1000);
  CHECK(manual->resubmit_delay(22 * HOUR - 1) == 1000);
  // Evening part of the night: until midnight, then until 08:00.
  CHECK(manual->resubmit_delay(22 * HOUR) == 10 * HOUR + 1000);
  CHECK(manual->resubmit_delay(23 * HOUR) == 9 * HOUR + 1000);
  CHECK(manual->resubmit_delay(23.5 * HOUR) == 8.5 * HOUR + 1000);
  // Morning part of the night.
  CHECK(manual->resubmit_delay(0) == 8 * HOUR + 1000);
  CHECK(manual->resubmit_delay(5 * HOUR) == 3 * HOUR + 1000);
  CHECK(manual->resubmit_delay(8 * HOUR - 1) == 1 + 1000);
}

TEST_CASE("manual recovery on later days uses the time of day")
{
  const auto manual =
      policy("manual", {{"person_delay_s", 1000}, {"night_start_hour", 22}, {"night_end_hour", 8}});
  CHECK(manual->resubmit_delay(3 * DAY + 23 * HOUR) == 9 * HOUR + 1000);
  CHECK(manual->resubmit_delay(3 * DAY + 2 * HOUR) == 6 * HOUR + 1000);
  CHECK(manual->resubmit_delay(3 * DAY + 14 * HOUR) == 1000);
  CHECK(manual->resubmit_delay(41 * DAY) == 8 * HOUR + 1000); // midnight of day 41
}

TEST_CASE("manual recovery across a night that does not wrap")
{
  const auto manual = policy("manual", {{"person_delay_s", 100}, {"night_start_hour", 1}, {"night_end_hour", 6}});
  CHECK(manual->resubmit_delay(0.5 * HOUR) == 100);
  CHECK(manual->resubmit_delay(1 * HOUR) == 5 * HOUR + 100);
  CHECK(manual->resubmit_delay(3 * HOUR) == 3 * HOUR + 100);
  CHECK(manual->resubmit_delay(6 * HOUR) == 100);
  CHECK(manual->resubmit_delay(23 * HOUR) == 100);
  CHECK(manual->resubmit_delay(2 * DAY + 3 * HOUR) == 3 * HOUR + 100);
  CHECK(manual->resubmit_delay(2 * DAY + 23 * HOUR) == 100);
}

TEST_CASE("manual recovery with equal night hours has no night")
{
  const auto manual = policy("manual", {{"person_delay_s", 100}, {"night_start_hour", 8}, {"night_end_hour", 8}});
  for (double h : {0.0, 3.0, 7.99, 8.0, 12.0, 22.0, 23.5})
    CHECK(manual->resubmit_delay(h * HOUR) == 100);
  CHECK(manual->resubmit_delay(5 * DAY + 23 * HOUR) == 100);
}

TEST_CASE("manual recovery with a night ending or starting at midnight")
{
  const auto to_midnight =
      policy("manual", {{"person_delay_s", 0}, {"night_start_hour", 20}, {"night_end_hour", 24}});
  CHECK(to_midnight->resubmit_delay(21 * HOUR) == 3 * HOUR);
  CHECK(to_midnight->resubmit_delay(1 * HOUR) == 0);
  const auto from_midnight =
      policy("manual", {{"person_delay_s", 0}, {"night_start_hour", 0}, {"night_end_hour", 7}});
  CHECK(from_midnight->resubmit_delay(0) == 7 * HOUR);
  CHECK(from_midnight->resubmit_delay(DAY + 2 * HOUR) == 5 * HOUR);
  CHECK(from_midnight->resubmit_delay(23 * HOUR) == 0);
}

TEST_CASE("auto recovery restarts after diagnosis without waiting for a person")
{
  const auto automatic = policy("auto", {{"diagnosis_s", 120}});
  CHECK_FALSE(automatic->waits_for_person());
  CHECK(automatic->diagnoses());
  CHECK(automatic->spare_nodes_per_pod() == 0);
  // The time of day does not matter.
  CHECK(automatic->resubmit_delay(12 * HOUR) == 120);
  CHECK(automatic->resubmit_delay(23 * HOUR) == 120);
  CHECK(automatic->resubmit_delay(3 * DAY + 3 * HOUR) == 120);

  const auto slow = policy("auto", {{"diagnosis_s", 900}});
  CHECK(slow->resubmit_delay(2 * HOUR) == 900);
}

TEST_CASE("auto recovery takes catalogue defaults for parameters the spec leaves out")
{
  const auto automatic = policy("auto");
  CHECK(automatic->resubmit_delay(0) == catalogue_default("auto", "diagnosis_s"));
  CHECK(automatic->health_check_s() == catalogue_default("auto", "health_check_s"));
  CHECK(automatic->max_restarts() == static_cast<int>(catalogue_default("auto", "max_restarts")));
  CHECK(automatic->escalation_repair_s() == catalogue_default("auto", "escalation_repair_h") * HOUR);
  CHECK(automatic->escalation_window_s() == catalogue_default("auto", "escalate_window_h") * HOUR);
  // The documented values: 120 s diagnosis, 60 s health check, 48 h repair, 72 h window.
  CHECK(automatic->resubmit_delay(0) == 120);
  CHECK(automatic->health_check_s() == 60);
  CHECK(automatic->escalation_repair_s() == 48 * HOUR);
  CHECK(automatic->escalation_window_s() == 72 * HOUR);
}

TEST_CASE("auto recovery converts escalation hours to seconds")
{
  const auto automatic = policy("auto", {{"escalation_repair_h", 5}, {"escalate_window_h", 10}});
  CHECK(automatic->escalation_repair_s() == 5 * HOUR);
  CHECK(automatic->escalation_window_s() == 10 * HOUR);
}

TEST_CASE("auto recovery escalates once enough failures fall within the window of the latest")
{
  const auto automatic = policy("auto", {{"escalate_after", 2}, {"escalate_window_h", 72}});
  CHECK_FALSE(automatic->escalates({}));
  CHECK_FALSE(automatic->escalates({100}));
  CHECK(automatic->escalates({100, 100 + 71 * HOUR}));
  CHECK(automatic->escalates({100, 100 + 72 * HOUR})); // the window's edge is inside
  CHECK_FALSE(automatic->escalates({100, 100 + 72 * HOUR + 1}));
  // Only failures within the window of the latest count: old ones do not.
  CHECK_FALSE(automatic->escalates({0, 10 * HOUR, 200 * HOUR}));
  CHECK(automatic->escalates({0, 190 * HOUR, 200 * HOUR}));
}

TEST_CASE("auto recovery escalation needs escalate_after failures")
{
  const auto three = policy("auto", {{"escalate_after", 3}, {"escalate_window_h", 24}});
  CHECK_FALSE(three->escalates({0, HOUR}));
  CHECK(three->escalates({0, HOUR, 2 * HOUR}));
  // The oldest of three is outside the window of the latest: two remain.
  CHECK_FALSE(three->escalates({0, 20 * HOUR, 25 * HOUR}));
  CHECK(three->escalates({0, 20 * HOUR, 22 * HOUR, 25 * HOUR}));
  // Many old failures do not make up for a lack of recent ones.
  CHECK_FALSE(three->escalates({0, HOUR, 2 * HOUR, 3 * HOUR, 100 * HOUR}));

  const auto one = policy("auto", {{"escalate_after", 1}, {"escalate_window_h", 1}});
  CHECK(one->escalates({50 * HOUR}));
}

TEST_CASE("auto+spares holds spare nodes in each pod")
{
  const auto with_spares = policy("auto+spares", {{"spare_nodes", 3}, {"diagnosis_s", 60}});
  CHECK(with_spares->spare_nodes_per_pod() == 3);
  CHECK_FALSE(with_spares->waits_for_person());
  CHECK(with_spares->diagnoses());
  CHECK(with_spares->resubmit_delay(23 * HOUR) == 60);

  const auto defaults = policy("auto+spares");
  CHECK(defaults->spare_nodes_per_pod() == static_cast<int>(catalogue_default("auto+spares", "spare_nodes")));
  CHECK(defaults->spare_nodes_per_pod() == 4);
  CHECK(defaults->escalates({0, HOUR}));

  const auto none = policy("auto+spares", {{"spare_nodes", 0}});
  CHECK(none->spare_nodes_per_pod() == 0);
}

TEST_CASE("an unknown recovery policy name is an internal error")
{
  CHECK_THROWS_AS(policy("bogus"), std::logic_error);
  CHECK_THROWS_AS(policy(""), std::logic_error);
  CHECK_THROWS_AS(policy("Manual"), std::logic_error);
}
