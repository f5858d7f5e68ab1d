// Shared text helpers and enum names: what every message, CSV file and report writes.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/common/Text.hpp"
#include "models/failure/FailureSpec.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <vector>

using namespace acmesim;

TEST_CASE("format_number writes the shortest text that reads back, in full below 10^16")
{
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(3650) == "3650");
  CHECK(format_number(1e9) == "1000000000");
  CHECK(format_number(0) == "0");
  CHECK(format_number(-2.5) == "-2.5");
  CHECK(format_number(0.123456789012) == "0.123456789012");
  CHECK(format_number(1e300) == "1e+300");
  CHECK(format_number(2e-7) == "2e-07");
  CHECK(format_number(1.0 / 3) == "0.3333333333333333");
}

TEST_CASE("csv_field quotes only fields that need it, doubling their quotes")
{
  CHECK(csv_field("job-1") == "job-1");
  CHECK(csv_field("") == "");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("join_names lists any range of names")
{
  CHECK(join_names(std::vector<std::string>{"a", "b", "c"}) == "a, b, c");
  CHECK(join_names(std::vector<std::string>{}) == "");
}

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
