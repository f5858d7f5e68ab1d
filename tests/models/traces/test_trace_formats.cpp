// Choosing a trace format (format names, the format a file name implies, reading a file in the
// format given, files that cannot be opened) and what every reader does around its own part.
#include "models/common/InputError.hpp"
#include "models/traces/TraceFormat.hpp"
#include "models/traces/TraceIo.hpp"
#include "tests/support/InputErrors.hpp"
#include "tests/support/TraceFormatTesting.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("parse_trace_format, to_string and trace_format_names", "[formats]")
{
  CHECK(enum_name_list<TraceFormat>() == "acme, swf, philly, helios, jobs");
  for (const auto format :
       {TraceFormat::Acme, TraceFormat::Swf, TraceFormat::Philly, TraceFormat::Helios, TraceFormat::Jobs})
    CHECK(parse_enum<TraceFormat>(to_string(format)) == format);
  CHECK(to_string(TraceFormat::Philly) == "philly");
  CHECK(parse_enum<TraceFormat>("swf") == TraceFormat::Swf);
  CHECK_FALSE(parse_enum<TraceFormat>("SWF").has_value()); // names are exact, as in the scenario schema
  CHECK_FALSE(parse_enum<TraceFormat>("").has_value());
  CHECK_FALSE(parse_enum<TraceFormat>("csv").has_value());
}

TEST_CASE("format_from_path infers the format from the file name", "[formats]")
{
  CHECK(format_from_path("logs/SDSC-SP2-1998-4.2-cln.swf") == TraceFormat::Swf);
  CHECK(format_from_path("LOG.SWF") == TraceFormat::Swf);
  CHECK(format_from_path("trace-data/cluster_job_log") == TraceFormat::Philly);
  CHECK(format_from_path("philly_small.json") == TraceFormat::Philly);
  CHECK(format_from_path("/data/Venus/cluster_log.csv") == TraceFormat::Helios);
  CHECK(format_from_path("venus_cluster_log.csv") == TraceFormat::Helios);
  CHECK(format_from_path("trace_seren.csv") == TraceFormat::Acme);
  CHECK(format_from_path("helios_small.csv") == TraceFormat::Acme); // only the name tells Helios apart
  CHECK(format_from_path("cluster_log_dir/jobs.csv") == TraceFormat::Jobs); // directories do not count
  CHECK(format_from_path("results/run/JOBS.CSV") == TraceFormat::Jobs);      // a run's jobs.csv
  CHECK(format_from_path("cluster_log_dir/my_jobs.csv") == TraceFormat::Acme);
  CHECK_FALSE(format_from_path("trace.txt").has_value());
  CHECK(format_from_path("trace.swf.gz") == TraceFormat::Swf); // read through gzip, told by content
  CHECK_FALSE(format_from_path("").has_value());
}

TEST_CASE("read_trace_file dispatches on the format", "[formats]")
{
  const Workload acme = read_trace_file(TRACE_DIR + "seren_small.csv", TraceFormat::Acme, BadRowPolicy::Error);
  CHECK(acme.jobs.size() == 6);
  CHECK(acme.jobs[0].type == JobType::Debug);
  const Workload swf = read_trace_file(TRACE_DIR + "pwa_small.swf", TraceFormat::Swf, BadRowPolicy::Error);
  CHECK(swf.jobs.size() == 6);
  const Workload philly = read_trace_file(TRACE_DIR + "philly_small.json", TraceFormat::Philly, BadRowPolicy::Error);
  CHECK(philly.jobs.size() == 3);
  const Workload helios = read_trace_file(TRACE_DIR + "helios_small.csv", TraceFormat::Helios, BadRowPolicy::Error);
  CHECK(helios.jobs.size() == 5);
  CHECK(helios.jobs[0].name == "2000100");

  const Workload run = read_trace_file(TRACE_DIR + "jobs.csv", TraceFormat::Jobs, BadRowPolicy::Error);
  CHECK(run.jobs.size() == 4);

  // The wrong format for a file fails loudly instead of reading nonsense.
  CHECK_THROWS_AS(read_trace_file(TRACE_DIR + "philly_small.json", TraceFormat::Swf, BadRowPolicy::Error),
                  InputError);
  CHECK_THROWS_AS(read_trace_file(TRACE_DIR + "helios_small.csv", TraceFormat::Acme, BadRowPolicy::Error),
                  InputError); // no type column
}

TEST_CASE("A missing file or a directory is an InputError naming the path, for every format", "[formats][errors]")
{
  const std::string path = TRACE_DIR + "does_not_exist";
  for (const auto format :
       {TraceFormat::Acme, TraceFormat::Swf, TraceFormat::Philly, TraceFormat::Helios, TraceFormat::Jobs}) {
    INFO(to_string(format));
    try {
      read_trace_file(path, format, BadRowPolicy::Error);
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      REQUIRE(e.diagnostics().size() == 1);
      CHECK(e.diagnostics()[0].where == path);
      CHECK(e.diagnostics()[0].message == "cannot open file");
    }
    CHECK_THROWS_AS(read_trace_file(TRACE_DIR, format, BadRowPolicy::Error), InputError);
  }
}

// ------------------------------------------------------------------ the frame every reader shares

namespace {

// A format whose reader takes two jobs, submitted at 30 s and 10 s, and one bad row.
void read_two_jobs_and_a_bad_row(const trace_io::TraceInput& input, Workload& workload, trace_io::BadRowLog& log)
{
  for (const double submit : {30.0, 10.0}) {
    Job job;
    job.name = input.source + "@" + std::to_string(static_cast<int>(submit));
    job.submit_s = submit;
    workload.jobs.push_back(job);
  }
  log.add(input.source + ":3", "field", "x", "not a job");
  log.end_row();
}

} // namespace

TEST_CASE("read_workload names, normalises, and reports or counts the bad rows of a format's reader", "[formats]")
{
  std::istringstream in("");
  const Workload skipped = trace_io::read_workload(in, "src", BadRowPolicy::Skip, read_two_jobs_and_a_bad_row);
  CHECK(skipped.source == "src");
  CHECK(skipped.skipped_rows == 1);
  REQUIRE(skipped.jobs.size() == 2);
  CHECK(skipped.jobs[0].name == "src@10"); // sorted by submission, time 0 = first submission
  CHECK(skipped.jobs[0].id == 0);
  CHECK(skipped.jobs[0].submit_s == 0.0);
  CHECK(skipped.jobs[1].name == "src@30");
  CHECK(skipped.jobs[1].id == 1);
  CHECK(skipped.jobs[1].submit_s == 20.0);

  const auto ds = input_errors([] {
    std::istringstream again("");
    trace_io::read_workload(again, "src", BadRowPolicy::Error, read_two_jobs_and_a_bad_row);
  });
  REQUIRE(ds.size() == 1);
  check_diagnostic(ds[0], "src:3", "field", "x", "not a job");
}

TEST_CASE("read_workload_file gives the reader the file as a stream, its path and its size", "[formats]")
{
  const std::string path = TRACE_DIR + "pwa_small.swf";
  std::string first_line;
  std::uintmax_t size_hint = 0;
  const auto read_first_line = [&](const trace_io::TraceInput& input, Workload&, trace_io::BadRowLog&) {
    std::getline(input.in, first_line);
    CHECK(input.source == path);
    size_hint = input.size_hint;
  };
  const Workload w = trace_io::read_workload_file(path, BadRowPolicy::Error, read_first_line);
  CHECK(w.source == path);
  CHECK(w.jobs.empty());
  CHECK(size_hint == std::filesystem::file_size(path));
  CHECK_THAT(first_line, Catch::StartsWith(";"));

  const auto ds = input_errors([] {
    trace_io::read_workload_file(TRACE_DIR + "does_not_exist", BadRowPolicy::Error,
                                 [](const trace_io::TraceInput&, Workload&, trace_io::BadRowLog&) {
                                   FAIL("a file that cannot be opened is not read");
                                 });
  });
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message == "cannot open file");
}

TEST_CASE("reserve_for_lines makes room once, for the jobs the input's size predicts", "[formats]")
{
  std::vector<Job> jobs;
  trace_io::reserve_for_lines(jobs, 0, 99, 32);
  CHECK(jobs.capacity() == 0); // size unknown

  // 10000 bytes of 100-byte lines (99 and the line ending): 100 jobs, and a margin of 16.
  trace_io::reserve_for_lines(jobs, 10'000, 99, 32);
  CHECK(jobs.capacity() >= 116);
  const std::size_t reserved = jobs.capacity();
  trace_io::reserve_for_lines(jobs, 1'000'000, 9, 32);
  CHECK(jobs.capacity() == reserved); // room was made already

  // Short lines count as `min_line_bytes`: 10000 / 50 + 16.
  std::vector<Job> short_lines;
  trace_io::reserve_for_lines(short_lines, 10'000, 3, 50);
  CHECK(short_lines.capacity() >= 216);
  CHECK(short_lines.capacity() < 10'000 / 4);
}

namespace {
// Every line LineReader gives for `text`, with its line number.
std::vector<std::pair<std::size_t, std::string>> lines_read(const std::string& text)
{
  std::istringstream in(text);
  trace_io::LineReader reader(in);
  std::vector<std::pair<std::size_t, std::string>> lines;
  std::string_view line;
  std::size_t line_no = 0;
  while (reader.next(line, line_no))
    lines.emplace_back(line_no, std::string(line));
  return lines;
}
} // namespace

TEST_CASE("LineReader gives every physical line, over block boundaries and past the block size", "[formats]")
{
  CHECK(lines_read("").empty());
  using Lines = std::vector<std::pair<std::size_t, std::string>>;
  CHECK(lines_read("a,b\r\n\n  \nlast") == Lines{{1, "a,b"}, {2, ""}, {3, "  "}, {4, "last"}});
  CHECK(lines_read("one\n") == Lines{{1, "one"}});
  CHECK(lines_read("\r\n") == Lines{{1, ""}});
  CHECK(lines_read("a\rb\r\r\n") == Lines{{1, "a\rb\r"}}); // only the \r of a line ending goes

  // Three megabytes of lines of every length up to 300 bytes, a 2.5 MB line (longer than a block)
  // and a last line without its line break, each line as it was put in.
  Lines expected;
  std::string text;
  for (std::size_t i = 0; text.size() < (std::size_t{3} << 20); ++i) {
    expected.emplace_back(i + 1, std::string(i % 301, static_cast<char>('a' + i % 26)));
    text += expected.back().second + (i % 7 == 0 ? "\r\n" : "\n");
  }
  expected.emplace_back(expected.size() + 1, std::string(std::size_t{5} << 19, 'x'));
  expected.emplace_back(expected.size() + 1, "tail");
  text += expected[expected.size() - 2].second + "\n" + "tail";
  const Lines lines = lines_read(text);
  CHECK(lines.size() == expected.size());
  CHECK(lines == expected);
}
