// A file of measured collectives (acmesim collective --measured), read and then fitted: the fit
// must refuse what it cannot use with an InputError, like the reader.
#include "models/network/CollectiveFit.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  return acmesim::fuzz::accept_input_errors([&] {
    const auto points = acmesim::read_measured_collectives("fuzz.csv", acmesim::fuzz::text_of(data, size));
    acmesim::fit_collectives(points, acmesim::a100_hdr_calibration());
  });
}
