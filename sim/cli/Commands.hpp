#pragma once
// The acmesim command line: every command, found by its name in one table (Commands.cpp).
// Exit codes and usage errors: ExitCodes.hpp.
#include "sim/cli/ExitCodes.hpp"

namespace acmesim {

int run_cli(int argc, const char* const* argv);

} // namespace acmesim
