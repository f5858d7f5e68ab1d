#pragma once
// Numbers with a fixed count of decimals, written as printf's "%.Nf" and fmt's "{:.Nf}" write
// them, only faster: jobs.csv holds millions of them (a dozen per job), and
// fmt's exact fixed-precision path costs about 75 ns a number. Here the binary value is scaled
// by 10^N in 128-bit integers, exactly, and rounded to nearest with ties to even, which is what
// the exact path does, so the text is the same byte for byte (tests/models/common/test_fixed_decimal.cpp
// compares them over millions of values and every kind of tie).
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>

namespace acmesim {

// `value` with `decimals` (0 to 9) digits after the point.
struct Fixed {
  double value = 0;
  int decimals = 3;
};

// Whether write_fixed can write `fixed`: 0 to 9 decimals, a finite value whose scaled magnitude
// stays below 2^63 (seconds up to 9e15 with 3 decimals). fmt writes the others. Inline: asked of
// every number of jobs.csv.
inline bool has_fast_fixed(Fixed fixed)
{
  // 9e18 / 10^decimals (each exact, as is the quotient's rounding).
  constexpr std::array<double, 10> limits{9e18, 9e17, 9e16, 9e15, 9e14, 9e13, 9e12, 9e11, 9e10, 9e9};
  return fixed.decimals >= 0 && fixed.decimals <= 9 &&
         std::fabs(fixed.value) < limits[static_cast<std::size_t>(fixed.decimals)]; // false for NaN
}
// Writes `fixed` (has_fast_fixed) into `out`, which holds at least FIXED_TEXT_MAX chars; returns
// the length. The chars after it, up to FIXED_TEXT_MAX, may be overwritten.
inline constexpr std::size_t FIXED_TEXT_MAX = 32;
std::size_t write_fixed(char* out, Fixed fixed);

// Appends `fixed` to a character buffer (fmt::memory_buffer, std::string): the text of
// fmt::format("{:.Nf}", value), without the cost of a format string, for writers of large files.
template <typename Buffer>
void append_fixed(Buffer& out, Fixed fixed)
{
  if (!has_fast_fixed(fixed)) {
    fmt::format_to(std::back_inserter(out), "{:.{}f}", fixed.value, fixed.decimals);
    return;
  }
  char text[FIXED_TEXT_MAX];
  const std::size_t length = write_fixed(text, fixed);
  out.append(text, text + length);
}

} // namespace acmesim
