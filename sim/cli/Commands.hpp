#pragma once
// The acmesim command line: run, validate, list, --help, --version.
// Exit codes: 0 success, 2 bad input (nothing simulated), 1 internal error.
namespace acmesim {

inline constexpr int EXIT_OK = 0;
inline constexpr int EXIT_INTERNAL = 1;
inline constexpr int EXIT_BAD_INPUT = 2;

int run_cli(int argc, const char* const* argv);

} // namespace acmesim
