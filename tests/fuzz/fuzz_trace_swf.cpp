// A Standard Workload Format log: its header's machine, then its jobs with bad rows an error and
// then skipped, and jobs of unknown fields bad rows and then dropped.
#include "models/traces/SwfHeader.hpp"
#include "models/traces/SwfReader.hpp"
#include "tests/fuzz/FuzzInput.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text = acmesim::fuzz::text_of(data, size);
  acmesim::fuzz::accept_input_errors([&] {
    std::istringstream in(text);
    acmesim::read_swf_machine(in, "fuzz.swf");
  });
  for (const auto policy : {acmesim::BadRowPolicy::Error, acmesim::BadRowPolicy::Skip})
    for (const auto unknown : {acmesim::UnknownPolicy::Error, acmesim::UnknownPolicy::Drop})
      acmesim::fuzz::accept_input_errors([&] {
        std::istringstream in(text);
        acmesim::read_swf_trace(in, "fuzz.swf", policy, unknown);
      });
  return 0;
}
