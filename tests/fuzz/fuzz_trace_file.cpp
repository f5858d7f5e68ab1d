// A trace file as it is opened, told by its content: any bytes, gzip ones included (the seeds are
// an SWF log and the same log gzipped), written to a file and read as an SWF trace, so that
// content sniffing and decompressing what is not valid gzip end in an InputError at worst.
#include "models/traces/TraceFormat.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string& path = acmesim::fuzz::as_file(data, size, "acmesim-fuzz-trace.swf");
  return acmesim::fuzz::accept_input_errors([&] {
    acmesim::read_trace_file(path, acmesim::TraceFormat::Swf, acmesim::BadRowPolicy::Skip,
                             acmesim::UnknownPolicy::Drop);
  });
}
