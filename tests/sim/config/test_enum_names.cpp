// Every enum a scenario names, declared once (models/common/EnumNames.hpp): the names parse back
// to their values and are distinct.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/common/Text.hpp"
#include "models/failure/FailureSpec.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <vector>

using namespace acmesim;

namespace {

template <NamedEnum E>
void check_names_round_trip()
{
  std::set<std::string_view> seen;
  for (E value : enum_values<E>()) {
    const std::string_view name = to_string(value);
    CHECK(seen.insert(name).second); // names are distinct
    CHECK(parse_enum<E>(name) == value);
  }
  CHECK_FALSE(parse_enum<E>("no such name").has_value());
  CHECK(enum_name_list<E>() == join_names(enum_name_vector<E>()));
}

} // namespace

TEST_CASE("every declared enum name parses back to its value, and names are distinct")
{
  check_names_round_trip<JobType>();
  check_names_round_trip<JobState>();
  check_names_round_trip<Component>();
  check_names_round_trip<FailureCategory>();
  check_names_round_trip<DurationDistribution::Kind>();
  check_names_round_trip<TraceFormat>();
  check_names_round_trip<BadRowPolicy>();
  check_names_round_trip<CheckpointMode>();
  check_names_round_trip<IntervalPolicy>();
  CHECK(enum_name_list<IntervalPolicy>() == "fixed, young, daly");
  CHECK(to_string(JobState::NodeFail) == "NODE_FAIL");
  CHECK(parse_enum<JobType>("eval") == std::nullopt); // exact, as in the trace
}
