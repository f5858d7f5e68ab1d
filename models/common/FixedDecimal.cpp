#include "models/common/FixedDecimal.hpp"

#include <array>
#include <cmath>
#include <cstdint>

namespace acmesim {

namespace {

// GCC and Clang's 128-bit integer (__extension__: outside ISO C++, as -Wpedantic notes).
__extension__ typedef unsigned __int128 U128;

constexpr std::array<std::uint64_t, 10> POWERS_OF_5{1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
constexpr std::array<double, 10> POWERS_OF_10{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

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

} // namespace

bool has_fast_fixed(Fixed fixed)
{
  return fixed.decimals >= 0 && fixed.decimals <= 9 &&
         std::fabs(fixed.value) < 9e18 / POWERS_OF_10[static_cast<std::size_t>(fixed.decimals)]; // false for NaN
}

std::size_t write_fixed(char* out, Fixed fixed)
{
  const double value = fixed.value;
  const int decimals = fixed.decimals;
  std::uint64_t q = scaled(std::fabs(value), decimals);
  char digits[24];
  std::size_t count = 0;
  do {
    digits[count++] = static_cast<char>('0' + q % 10);
    q /= 10;
  } while (q != 0);
  while (count < static_cast<std::size_t>(decimals) + 1) // "0.005": the integer part and leading zeros
    digits[count++] = '0';
  std::size_t length = 0;
  if (std::signbit(value)) // as printf: -0.000 for -0.0 and for negatives that round to zero
    out[length++] = '-';
  for (std::size_t i = count; i-- > 0;) {
    out[length++] = digits[i];
    if (i == static_cast<std::size_t>(decimals) && decimals > 0)
      out[length++] = '.';
  }
  return length;
}

} // namespace acmesim
