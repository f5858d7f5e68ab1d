#pragma once
// Scenario texts and loaders shared by the tests of the scenario loader, one file per section.
#include "models/common/InputError.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace acmesim::testing {

inline const std::string DATA_DIR = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/scenarios";

// A valid workload section; tests about other sections append it. It starts at a line of its own.
inline const std::string WORKLOAD = "workload:\n"
                                    "  synthetic:\n"
                                    "    days: 1\n"
                                    "    users: 10\n"
                                    "    types:\n"
                                    "      Eval:\n"
                                    "        arrivals_per_hour: 60\n"
                                    "        gpus: {values: [1, 2, 4, 8], cdf: [0.85, 0.9, 0.95, 1.0]}\n"
                                    "        duration_s: {values: [8, 64, 256], cdf: [0.3, 0.7, 1.0]}\n";

inline const std::string SEREN = "cluster:\n  preset: seren\n";

inline Scenario load(const std::string& text, const std::vector<std::string>& overrides = {})
{
  return load_scenario_text(text, "test.yaml", DATA_DIR, overrides);
}

// The diagnostics of a scenario that must not load.
inline std::vector<Diagnostic> errors_of(const std::string& text, const std::vector<std::string>& overrides = {})
{
  return input_errors([&] { load(text, overrides); });
}

inline Diagnostic single_error(const std::string& text, const std::vector<std::string>& overrides = {})
{
  const auto errors = errors_of(text, overrides);
  INFO((errors.empty() ? std::string("no error") : InputError(errors).what()));
  REQUIRE(errors.size() == 1);
  return errors.front();
}

inline bool has_key(const std::vector<Diagnostic>& errors, const std::string& key)
{
  return std::any_of(errors.begin(), errors.end(), [&](const Diagnostic& d) { return d.key == key; });
}

} // namespace acmesim::testing
