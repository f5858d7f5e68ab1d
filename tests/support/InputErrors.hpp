#pragma once
// The diagnostics of input that must be refused: runs `load` and returns what its InputError
// carries; a test failure if it throws none.
#include "models/common/InputError.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace acmesim::testing {

template <typename Load>
std::vector<Diagnostic> input_errors(Load&& load)
{
  try {
    load();
  } catch (const InputError& e) {
    return e.diagnostics();
  }
  FAIL("expected an InputError");
  return {};
}

} // namespace acmesim::testing
