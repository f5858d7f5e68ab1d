#include "models/common/FixedDecimal.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace acmesim {

namespace {

// GCC and Clang's 128-bit integer (__extension__: outside ISO C++, as -Wpedantic notes).
__extension__ typedef unsigned __int128 U128;

constexpr std::array<std::uint64_t, 10> POWERS_OF_5{1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
constexpr std::array<double, 10> POWERS_OF_10{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
constexpr std::array<std::uint64_t, 19> WHOLE_POWERS_OF_10 = [] {
  std::array<std::uint64_t, 19> powers{};
  std::uint64_t p = 1;
  for (auto& power : powers) {
    power = p;
    p *= 10;
  }
  return powers;
}();
constexpr char DIGIT_PAIRS[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                               "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                               "8081828384858687888990919293949596979899";

// round(|value| * 10^decimals), ties to even, computed on the exact binary value:
// |value| = m * 2^e with m a 53-bit integer, so |value| * 10^d = m * 5^d * 2^(e + d), and
// m * 5^d < 2^75 is exact in 128 bits. The caller keeps the result below 2^63.
std::uint64_t scaled(double magnitude, int decimals)
{
  if (magnitude == 0)
    return 0;
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent); // magnitude = fraction * 2^exponent
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const U128 n = static_cast<U128>(mantissa) * POWERS_OF_5[static_cast<std::size_t>(decimals)];
  const int shift = exponent - 53 + decimals;
  if (shift >= 0)
    return static_cast<std::uint64_t>(n << shift);
  if (-shift >= 100) // n < 2^75: far below one half
    return 0;
  const int s = -shift;
  const U128 one = 1;
  auto q = static_cast<std::uint64_t>(n >> s);
  const U128 remainder = n & ((one << s) - 1);
  const U128 half = one << (s - 1);
  if (remainder > half || (remainder == half && (q & 1) != 0))
    ++q;
  return q;
}

// round(|value| * 10^decimals), ties to even, the quick way when it is safe: the double product
// is within half an ulp of the exact one, so both round to the same integer unless a half lies
// between them, and none can while the product's fraction keeps more than an ulp away from one
// half (checked; a product of at most 2^50 has an ulp below 2^-2). Most values in the result
// files pass: integers, zeros and times with milliseconds.
std::optional<std::uint64_t> scaled_quickly(double magnitude, int decimals)
{
  const double product = magnitude * POWERS_OF_10[static_cast<std::size_t>(decimals)];
  if (!(product < 0x1p50))
    return std::nullopt;
  const auto whole = static_cast<std::uint64_t>(product); // the floor: product is not negative
  const double fraction = product - static_cast<double>(whole); // exact: both below 2^50
  if (std::fabs(fraction - 0.5) <= product * 0x1p-51)
    return std::nullopt;
  return whole + (fraction > 0.5 ? 1 : 0);
}

// Decimal digits of n (0 has none): log10 estimated from the bit width (1233 / 4096 is just below
// log10(2)), then corrected by one comparison.
int decimal_digits(std::uint64_t n)
{
  const int estimate = static_cast<int>((std::bit_width(n) * 1233) >> 12);
  return estimate + (n >= WHOLE_POWERS_OF_10[static_cast<std::size_t>(estimate)] ? 1 : 0);
}

} // namespace

std::size_t write_fixed(char* out, Fixed fixed)
{
  const double value = fixed.value;
  const int decimals = fixed.decimals;
  if (value == 0 && !std::signbit(value)) { // jobs.csv's commonest value: the fault columns of most jobs
    static constexpr char ZERO[] = "0.000000000";
    std::memcpy(out, ZERO, sizeof ZERO - 1); // a fixed size: no call; `out` has the room
    return static_cast<std::size_t>(decimals > 0 ? decimals + 2 : 1);
  }
  const double magnitude = std::fabs(value);
  const std::optional<std::uint64_t> quick = scaled_quickly(magnitude, decimals);
  std::uint64_t q = quick ? *quick : scaled(magnitude, decimals);
  // The length first (at least one digit before the point), then the text written backwards into
  // `out`, two digits at a time where it can.
  const bool negative = std::signbit(value); // as printf: -0.000 for -0.0 and negatives rounding to 0
  const int digits = std::max(decimal_digits(q), decimals + 1);
  const auto length = static_cast<std::size_t>(digits + (decimals > 0 ? 1 : 0) + (negative ? 1 : 0));
  char* p = out + length;
  const auto two_digits = [&p](std::uint64_t pair) {
    p -= 2;
    std::memcpy(p, &DIGIT_PAIRS[2 * pair], 2);
  };
  int left = decimals;
  for (; left >= 2; left -= 2, q /= 100)
    two_digits(q % 100);
  if (left == 1) {
    *--p = static_cast<char>('0' + q % 10);
    q /= 10;
  }
  if (decimals > 0)
    *--p = '.';
  for (; q >= 100; q /= 100)
    two_digits(q % 100);
  if (q >= 10)
    two_digits(q);
  else
    *--p = static_cast<char>('0' + q);
  if (negative)
    *--p = '-';
  return length;
}

} // namespace acmesim
