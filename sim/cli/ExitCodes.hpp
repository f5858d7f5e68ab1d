#pragma once
// What every command returns or throws. Exit codes: 0 success, 2 bad input (nothing simulated),
// 1 internal error, 130 / 143 interrupted.
#include <stdexcept>

namespace acmesim {

// A command line that cannot be understood (unknown option, missing argument): exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int EXIT_OK = 0;
inline constexpr int EXIT_INTERNAL = 1;
inline constexpr int EXIT_BAD_INPUT = 2;
// `acmesim plan`: the plan ran, and no candidate meets every target.
inline constexpr int EXIT_NO_ANSWER = 3;
// Interrupted by SIGINT or SIGTERM: 128 + the signal, 130 or 143 (models/common/Interrupts.hpp).

} // namespace acmesim
