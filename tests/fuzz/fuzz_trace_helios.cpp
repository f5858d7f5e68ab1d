// Helios' cluster_log.csv, with bad rows an error and then skipped.
#include "models/traces/HeliosReader.hpp"
#include "tests/fuzz/FuzzInput.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text = acmesim::fuzz::text_of(data, size);
  for (const auto policy : {acmesim::BadRowPolicy::Error, acmesim::BadRowPolicy::Skip})
    acmesim::fuzz::accept_input_errors([&] {
      std::istringstream in(text);
      acmesim::read_helios_trace(in, "fuzz.csv", policy);
    });
  return 0;
}
