// Inputs told by their content, not their name: a gzip file of every format reads as its text
// does, whatever it is called; another compression or binary data is one clear error.
#include "models/common/InputError.hpp"
#include "models/traces/FileContent.hpp"
#include "models/traces/SwfHeader.hpp"
#include "models/traces/TraceFormat.hpp"
#include "tests/support/TraceFormatTesting.hpp"

#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace acmesim;
using acmesim::testing::TRACE_DIR;
namespace fs = std::filesystem;

namespace {

// A folder of this test process's own, removed at exit.
const fs::path& scratch()
{
  struct Dir {
    fs::path path = fs::temp_directory_path() / ("acmesim-compressed-" + std::to_string(::getpid()));
    Dir() { fs::create_directories(path); }
    ~Dir()
    {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

std::string slurp(const fs::path& p)
{
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

fs::path write(const std::string& name, const std::string& bytes)
{
  const fs::path p = scratch() / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

std::string gzipped(const std::string& text)
{
  std::ostringstream out;
  {
    boost::iostreams::filtering_ostream gzip;
    gzip.push(boost::iostreams::gzip_compressor());
    gzip.push(out);
    gzip << text;
  }
  return out.str();
}

FileContent content(const std::string& bytes)
{
  return content_of(std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()));
}

std::string error_of(const fs::path& path, TraceFormat format)
{
  try {
    read_trace_file(path.string(), format, BadRowPolicy::Error);
  } catch (const InputError& e) {
    return e.diagnostics().front().to_string();
  }
  FAIL("expected an InputError for " << path);
  return "";
}

} // namespace

TEST_CASE("content_of tells gzip, other compressions, binary data and text from their first bytes", "[compressed]")
{
  CHECK(content(gzipped("a b c\n")) == FileContent::Gzip);
  CHECK(content("BZh91AY&SY") == FileContent::Bzip2);
  CHECK(content(std::string("\xfd" "7zXZ\0\0", 7)) == FileContent::Xz);
  CHECK(content("\x28\xb5\x2f\xfd rest") == FileContent::Zstd);
  CHECK(content("PK\x03\x04 rest") == FileContent::Zip);
  CHECK(content("7z\xbc\xaf\x27\x1c rest") == FileContent::SevenZip);
  CHECK(content(std::string("job_id,user\n1,\0u", 16)) == FileContent::Binary);
  CHECK(content("; Version: 2.2\n1 0 -1 10 4\n") == FileContent::Text);
  CHECK(content("") == FileContent::Text); // an empty file: each reader says it is empty
  CHECK(unreadable_content(FileContent::Text).empty());
  CHECK(unreadable_content(FileContent::Gzip).empty());
}

TEST_CASE("a gzip file of every format reads as the text it holds, whatever its name", "[compressed]")
{
  const std::pair<const char*, TraceFormat> fixtures[] = {
      {"seren_small.csv", TraceFormat::Acme},     {"pwa_small.swf", TraceFormat::Swf},
      {"philly_small.json", TraceFormat::Philly}, {"helios_small.csv", TraceFormat::Helios},
      {"jobs.csv", TraceFormat::Jobs}};
  for (const auto& [name, format] : fixtures) {
    INFO(name);
    const Workload plain = read_trace_file(TRACE_DIR + name, format, BadRowPolicy::Error);
    const std::string packed = gzipped(slurp(TRACE_DIR + name));
    // Named as the archive names it, and named as if it were plain text: the content decides.
    for (const std::string& as : {std::string(name) + ".gz", "plain-looking-" + std::string(name)}) {
      const Workload read = read_trace_file(write(as, packed).string(), format, BadRowPolicy::Error);
      REQUIRE(read.jobs.size() == plain.jobs.size());
      for (std::size_t j = 0; j < plain.jobs.size(); ++j) {
        CHECK(read.jobs[j].name == plain.jobs[j].name);
        CHECK(read.jobs[j].submit_s == plain.jobs[j].submit_s);
        CHECK(read.jobs[j].duration_s == plain.jobs[j].duration_s);
        CHECK(read.jobs[j].gpus == plain.jobs[j].gpus);
      }
    }
  }
}

TEST_CASE("the format is told from a compressed file's name without its .gz", "[compressed]")
{
  CHECK(format_from_path("logs/CTC-SP2-1996-3.1-cln.swf.gz") == TraceFormat::Swf);
  CHECK(format_from_path("cluster_log.csv.gz") == TraceFormat::Helios);
  CHECK(format_from_path("kalos.CSV.GZ") == TraceFormat::Acme);
  // Other compressions too: the format is known, and reading says the compression is not.
  CHECK(format_from_path("log.swf.bz2") == TraceFormat::Swf);
  CHECK(format_from_path("log.swf.xz") == TraceFormat::Swf);
  CHECK_FALSE(format_from_path("trace.gz").has_value());
}

TEST_CASE("an SWF header is read through gzip, so the machine sizes the cluster from a .swf.gz", "[compressed]")
{
  const fs::path packed = write("header.swf.gz", gzipped(slurp(TRACE_DIR + "pwa_small.swf")));
  const SwfMachine machine = read_swf_machine_file(packed.string());
  const SwfMachine plain = read_swf_machine_file(TRACE_DIR + "pwa_small.swf");
  CHECK(machine.computer == plain.computer);
  CHECK(machine.max_procs.has_value() == plain.max_procs.has_value());
  CHECK(machine.max_nodes.has_value() == plain.max_nodes.has_value());
  CHECK((machine.max_procs.has_value() || machine.max_nodes.has_value()));
}

TEST_CASE("another compression, binary data and a truncated gzip file are each one clear error", "[compressed]")
{
  const std::string bzip2 = error_of(write("log.swf.bz2", "BZh91AY&SY\x01\x02"), TraceFormat::Swf);
  CHECK_THAT(bzip2, Catch::Contains("log.swf.bz2") && Catch::Contains("compressed with bzip2") &&
                        Catch::Contains("bunzip2 FILE"));
  const std::string xz = error_of(write("log.swf.xz", std::string("\xfd" "7zXZ\0\0", 7)), TraceFormat::Swf);
  CHECK_THAT(xz, Catch::Contains("compressed with xz"));
  const std::string binary = error_of(write("zeros.csv", std::string(10000, '\0')), TraceFormat::Acme);
  CHECK_THAT(binary, Catch::Contains("is a binary file (it holds NUL bytes)"));

  const std::string packed = gzipped(slurp(TRACE_DIR + "pwa_small.swf"));
  const std::string truncated = error_of(write("cut.swf.gz", packed.substr(0, packed.size() / 2)), TraceFormat::Swf);
  CHECK_THAT(truncated, Catch::Contains("cut.swf.gz") && Catch::Contains("truncated or corrupt"));
}
