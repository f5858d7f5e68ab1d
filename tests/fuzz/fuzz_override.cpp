// One `--set key=value` override on the embedded default scenario.
#include "sim/config/ScenarioLoader.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  return acmesim::fuzz::accept_input_errors(
      [&] { acmesim::load_default_scenario({acmesim::fuzz::text_of(data, size)}); });
}
