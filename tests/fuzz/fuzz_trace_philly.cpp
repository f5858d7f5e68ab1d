// Philly's cluster_job_log (JSON), with bad rows an error and then skipped.
#include "models/traces/PhillyReader.hpp"
#include "tests/fuzz/FuzzInput.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text = acmesim::fuzz::text_of(data, size);
  for (const auto policy : {acmesim::BadRowPolicy::Error, acmesim::BadRowPolicy::Skip})
    acmesim::fuzz::accept_input_errors([&] {
      std::istringstream in(text);
      acmesim::read_philly_trace(in, "fuzz.json", policy);
    });
  return 0;
}
