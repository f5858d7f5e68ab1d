// A trace file as it is opened, told by its content: any bytes, gzip ones included (the seeds are
// an SWF log and the same log gzipped), written to a file and read as an SWF trace, so that
// content sniffing and decompressing what is not valid gzip end in an InputError at worst.
#include "models/traces/TraceFormat.hpp"
#include "tests/fuzz/FuzzInput.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  // One file per fuzzing process, in the temporary folder, rewritten for each input and removed
  // when the process exits.
  struct File {
    std::string path =
        (std::filesystem::temp_directory_path() / ("acmesim-fuzz-trace-" + std::to_string(::getpid()) + ".swf"))
            .string();
    ~File() { std::remove(path.c_str()); }
  };
  static const File file;
  const std::string& path = file.path;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  acmesim::fuzz::accept_input_errors([&] {
    acmesim::read_trace_file(path, acmesim::TraceFormat::Swf, acmesim::BadRowPolicy::Skip,
                             acmesim::UnknownPolicy::Drop);
  });
  return 0;
}
