// A scenario file as `acmesim run` reads it.
#include "sim/config/ScenarioLoader.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  return acmesim::fuzz::accept_input_errors(
      [&] { acmesim::load_scenario_text(acmesim::fuzz::text_of(data, size), "fuzz.yaml", "/nonexistent"); });
}
