// Shared text helpers and enum names: what every message, CSV file and report writes (every
// declared enum is checked in tests/sim/config/test_enum_names.cpp).
#include "models/common/EnumNames.hpp"
#include "models/common/Text.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
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

enum class Colour : std::uint8_t { Red, DarkBlue };
constexpr auto enum_names(Colour) { return names_in_order<Colour>("red", "dark_blue"); }

} // namespace

TEST_CASE("an enum's declared names give to_string, parsing and the lists of messages")
{
  CHECK(to_string(Colour::DarkBlue) == "dark_blue");
  CHECK(parse_enum<Colour>("red") == Colour::Red);
  CHECK_FALSE(parse_enum<Colour>("Red").has_value()); // exact
  CHECK(enum_name_list<Colour>() == "red, dark_blue");
  CHECK(enum_values<Colour>().size() == 2);
}

TEST_CASE("names that become directories are one plain path part, and safe_name makes one")
{
  CHECK(is_safe_name("kalos-fifo_2.v1"));
  CHECK_FALSE(is_safe_name(""));
  CHECK_FALSE(is_safe_name(".hidden"));
  CHECK_FALSE(is_safe_name("a/b"));
  CHECK_FALSE(is_safe_name(std::string(MAX_NAME_LENGTH + 1, 'a')));
  CHECK(is_safe_name(std::string(MAX_NAME_LENGTH, 'a')));
  CHECK(safe_name("a/b c") == "a_b_c");
  CHECK(safe_name(".x") == "_.x");
  CHECK(safe_name("") == "_");
  CHECK(safe_name(std::string(300, 'a')).size() == MAX_NAME_LENGTH);
}
