// A sweep file.
#include "sim/experiment/SweepSpec.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  return acmesim::fuzz::accept_input_errors(
      [&] { acmesim::parse_sweep(acmesim::fuzz::text_of(data, size), "fuzz.yaml", "/nonexistent", "fuzz"); });
}
