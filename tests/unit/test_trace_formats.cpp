// Choosing a trace format: format names, the format a file name implies, reading a file in the
// format given, and files that cannot be opened.
#include "models/common/InputError.hpp"
#include "models/workload/TraceFormat.hpp"
#include "tests/unit/TraceFormatTesting.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("parse_trace_format, to_string and trace_format_names", "[formats]")
{
  CHECK(enum_name_list<TraceFormat>() == "acme, swf, philly, helios");
  for (const auto format : {TraceFormat::Acme, TraceFormat::Swf, TraceFormat::Philly, TraceFormat::Helios})
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
  CHECK(format_from_path("cluster_log_dir/jobs.csv") == TraceFormat::Acme); // directories do not count
  CHECK_FALSE(format_from_path("trace.txt").has_value());
  CHECK_FALSE(format_from_path("trace.swf.gz").has_value());
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

  // The wrong format for a file fails loudly instead of reading nonsense.
  CHECK_THROWS_AS(read_trace_file(TRACE_DIR + "philly_small.json", TraceFormat::Swf, BadRowPolicy::Error),
                  InputError);
  CHECK_THROWS_AS(read_trace_file(TRACE_DIR + "helios_small.csv", TraceFormat::Acme, BadRowPolicy::Error),
                  InputError); // no type column
}

TEST_CASE("A missing file or a directory is an InputError naming the path, for every format", "[formats][errors]")
{
  const std::string path = TRACE_DIR + "does_not_exist";
  for (const auto format : {TraceFormat::Acme, TraceFormat::Swf, TraceFormat::Philly, TraceFormat::Helios}) {
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
