// A run's jobs.csv as `acmesim workload stats --recorded-vs-simulated` reads it: any bytes, written
// to a file (the reader opens files, gzip ones too), so that a broken header, quoting or cell ends
// in an InputError at worst. The seed is a replayed SWF log's jobs.csv, with the recorded columns.
#include "models/traces/RunJobWaits.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string& path = acmesim::fuzz::as_file(data, size, "acmesim-fuzz-jobs.csv");
  return acmesim::fuzz::accept_input_errors([&] { acmesim::read_run_job_waits(path); });
}
