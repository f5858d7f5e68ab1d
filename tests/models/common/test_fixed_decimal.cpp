// Fixed-decimal numbers are written byte for byte as fmt's "{:.Nf}" writes them: random values
// of every magnitude, exact ties (rounded to even), signs, zeros and what falls back to fmt.
#include "models/common/FixedDecimal.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

using namespace acmesim;

namespace {

std::string fast(double value, int decimals)
{
  std::string text;
  append_fixed(text, Fixed{value, decimals});
  return text;
}
std::string exact(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

// Counts the values whose text differs, showing the first few.
int mismatches(double value, int decimals)
{
  const std::string a = fast(value, decimals);
  const std::string b = exact(value, decimals);
  if (a == b)
    return 0;
  UNSCOPED_INFO(fmt::format("{:a} with {} decimals: {} against fmt's {}", value, decimals, a, b));
  return 1;
}

} // namespace

TEST_CASE("fixed decimals: the examples of the result files")
{
  CHECK(fast(0, 3) == "0.000");
  CHECK(fast(-0.0, 3) == "-0.000");
  CHECK(fast(1234.5678, 3) == "1234.568");
  CHECK(fast(0.0005, 3) == "0.001"); // 0.0005 is a little above one half in binary
  CHECK(fast(0.0625, 3) == "0.062"); // an exact tie: to even
  CHECK(fast(0.1875, 3) == "0.188");
  CHECK(fast(-0.0001, 3) == "-0.000");
  CHECK(fast(2.5, 0) == "2");
  CHECK(fast(0.999999, 6) == "0.999999");
  CHECK(fast(16262541.123456789, 6) == "16262541.123457");
}

TEST_CASE("fixed decimals: zeros and the lengths either side of each power of ten")
{
  // Zero has its own path; the length of the others is counted before a digit is written.
  int differ = 0;
  for (int d = 0; d <= 9; ++d) {
    differ += mismatches(0.0, d) + mismatches(-0.0, d);
    for (double power = 1; power < 1e15; power *= 10)
      for (const double value : {power, power - 1, power / 1000 - 0.001, power + 0.5})
        differ += mismatches(value, d) + mismatches(-value, d);
  }
  CHECK(differ == 0);
}

TEST_CASE("fixed decimals: every exact tie rounds as fmt rounds it")
{
  // x * 10^d ends in exactly .5 when x = odd / 2^(d + 1).
  int differ = 0;
  for (int d = 0; d <= 9; ++d)
    for (int odd = 1; odd < 20001; odd += 2)
      for (const double sign : {1.0, -1.0})
        differ += mismatches(sign * std::ldexp(odd, -(d + 1)), d);
  CHECK(differ == 0);
}

TEST_CASE("fixed decimals: two million random values of every magnitude match fmt")
{
  std::mt19937_64 random(20261126);
  int differ = 0;
  for (int i = 0; i < 2'000'000; ++i) {
    const int d = static_cast<int>(random() % 10);
    double value = 0;
    switch (i % 4) {
    case 0: // any bit pattern whose exponent gives 2^-60 .. 2^70
      value = std::bit_cast<double>((random() & 0x800F'FFFF'FFFF'FFFFULL) |
                                    (static_cast<std::uint64_t>(1023 - 60 + random() % 130) << 52));
      break;
    case 1: // seconds of a run, as jobs.csv writes them
      value = std::uniform_real_distribution<double>(0, 2e7)(random);
      break;
    case 2: // sums of millisecond steps, which land near halves
      value = static_cast<double>(random() % 100'000'000) / 1000 + 0.0005;
      break;
    default: // shares and ratios
      value = std::uniform_real_distribution<double>(-1, 1)(random);
      break;
    }
    differ += mismatches(value, d);
  }
  CHECK(differ == 0);
}

TEST_CASE("fixed decimals: what the 64-bit path cannot hold is fmt's own text")
{
  const double inf = std::numeric_limits<double>::infinity();
  int differ = 0;
  for (const double value : {inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1e300, -1e300, 9e18, 8.99e15,
                             std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min()})
    for (int d = 0; d <= 9; ++d)
      differ += mismatches(value, d);
  CHECK(differ == 0);
  CHECK(fast(1.5, 12) == exact(1.5, 12)); // more decimals than the fast path takes
}

TEST_CASE("fixed decimals: milliseconds and their binary neighbours, the common case, match fmt")
{
  // Times read from traces carry milliseconds: x * 1000 lands within an ulp of an integer, and the
  // neighbours of a value ending in 5 at the fourth decimal within an ulp of a half.
  std::mt19937_64 random(7);
  int differ = 0;
  for (int i = 0; i < 300'000; ++i) {
    const double ms = static_cast<double>(random() % 2'000'000'000) / 1000;
    const double half = static_cast<double>(random() % 2'000'000'000) / 1000 + 0.0005;
    for (const double value : {ms, std::nextafter(ms, 0.0), std::nextafter(ms, 1e300), half, std::nextafter(half, 0.0),
                               std::nextafter(half, 1e300)})
      differ += mismatches(value, 3);
  }
  CHECK(differ == 0);
}
