// The Helios reader (the Acme reader without job types): the fixture, bad rows and their
// diagnostics, the skip policy, missing and repeated columns and empty inputs.
#include "models/traces/HeliosReader.hpp"
#include "tests/support/TraceFormatTesting.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("Helios fixture: Acme-like columns, no types, empty duration falls back", "[helios]")
{
  const std::string path = TRACE_DIR + "helios_small.csv";
  const Workload w = read_helios_trace_file(path, BadRowPolicy::Error);
  CHECK(w.source == path);
  CHECK(w.skipped_rows == 0);
  REQUIRE(w.jobs.size() == 5);

  CHECK(w.jobs[0].name == "2000100");
  CHECK(w.jobs[0].user == "uCc03");
  CHECK(w.jobs[0].type == JobType::Other);
  CHECK(w.jobs[0].final_state == JobState::Timeout);
  CHECK(w.jobs[0].gpus == 8);
  CHECK(w.jobs[0].cpus == 32);
  CHECK(w.jobs[0].trace_nodes == 1);
  CHECK(w.jobs[0].submit_s == 0.0);
  CHECK(w.jobs[0].duration_s == 86400.0);

  CHECK(w.jobs[1].name == "2000101");
  CHECK(w.jobs[1].final_state == JobState::Completed);
  CHECK(w.jobs[1].submit_s == 61.0);
  CHECK(w.jobs[1].duration_s == 3600.0);

  CHECK(w.jobs[2].name == "2000102");
  CHECK(w.jobs[2].final_state == JobState::Failed);
  CHECK(w.jobs[2].gpus == 16);
  CHECK(w.jobs[2].trace_nodes == 2);
  CHECK(w.jobs[2].submit_s == 87.0);
  CHECK(w.jobs[2].duration_s == 249.0);

  CHECK(w.jobs[3].name == "2000103");
  CHECK(w.jobs[3].cpu_only());
  CHECK(w.jobs[3].final_state == JobState::Cancelled);
  CHECK(w.jobs[3].duration_s == 0.0);

  CHECK(w.jobs[4].name == "2000104");
  CHECK(w.jobs[4].final_state == JobState::NodeFail);
  CHECK(w.jobs[4].submit_s == 180.0);
  CHECK(w.jobs[4].duration_s == 3600.0);
}

TEST_CASE("Helios bad rows name the line, column and value", "[helios][errors]")
{
  const std::string text = HELIOS_HEADER + helios_row("1", "1", "COMPLETED", "2020-06-09 17:00:00", "10") +
                           helios_row("2", "two", "COMPLETED", "2020-06-09 17:00:00", "10") +
                           helios_row("3", "1", "SUSPENDED", "2020-06-09 17:00:00", "10") +
                           helios_row("4", "1", "FAILED", "2020-06-31 17:00:00", "10") +
                           helios_row("5", "1", "FAILED", "2020-06-09 17:00:00", "-3") +
                           helios_row("6", "1", "FAILED", "2020-06-09 17:00:00", "nan") + "7,u1,vc1,1\n" +
                           "8,u1,vc1,1,4,1,FAILED,2020-06-09 17:00:00,2020-06-09 19:00:00,2020-06-09 18:00:00,,0\n" +
                           "9,\"u1,vc1,1,4,1,FAILED,2020-06-09 17:00:00,,,,0\n";
  const auto ds = errors_of(read_helios_trace, text);
  REQUIRE(ds.size() == 8);
  check_diagnostic(ds[0], "t:3", "gpu_num", "two", "non-negative integer");
  check_diagnostic(ds[1], "t:4", "state", "SUSPENDED",
                   "expected one of COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL");
  check_diagnostic(ds[2], "t:5", "submit_time", "2020-06-31 17:00:00", "timestamp");
  check_diagnostic(ds[3], "t:6", "duration", "-3", "non-negative number of seconds");
  check_diagnostic(ds[4], "t:7", "duration", "nan", "non-negative number of seconds");
  check_diagnostic(ds[5], "t:8", "", "", "expected 12 fields as in the header, found 4");
  check_diagnostic(ds[6], "t:9", "end_time", "2020-06-09 18:00:00", "not before start_time 2020-06-09 19:00:00");
  check_diagnostic(ds[7], "t:10", "", "", "closing '\"'");
}

TEST_CASE("Helios skip policy drops and counts bad rows", "[helios][errors]")
{
  const std::string text = HELIOS_HEADER + helios_row("1", "8", "COMPLETED", "2020-06-09 17:00:10", "10") +
                           helios_row("2", "1.5", "COMPLETED", "2020-06-09 17:00:00", "10") +
                           helios_row("3", "x", "Nope", "2020-06-09 17:00:00", "10") + "short,row\n" +
                           helios_row("4", "2.0", "CANCELLED", "2020-06-09 17:00:20", "20");
  const Workload w = read_text(read_helios_trace, text, BadRowPolicy::Skip);
  CHECK(w.skipped_rows == 3);
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "1");
  CHECK(w.jobs[1].name == "4");
  CHECK(w.jobs[1].gpus == 2); // pandas-style "2.0" is an integer
  CHECK(w.jobs[1].submit_s == 10.0);
}

TEST_CASE("Helios missing columns, duplicate columns and empty input", "[helios][errors]")
{
  const auto ds = errors_of(read_helios_trace, "job_id,user,vc,cpu_num,state,submit_time,start_time\n",
                            BadRowPolicy::Skip);
  REQUIRE(ds.size() == 2);
  check_diagnostic(
      ds[0], "t:1", "gpu_num", "",
      "missing required column (found columns: job_id, user, vc, cpu_num, state, submit_time, start_time)");
  check_diagnostic(ds[1], "t:1", "duration", "", "both start_time and end_time");

  const auto dup = errors_of(read_helios_trace, "job_id,gpu_num,state,submit_time,duration,gpu_num\n");
  REQUIRE(dup.size() == 1);
  check_diagnostic(dup[0], "t:1", "gpu_num", "", "columns 2 and 6");

  for (const char* text : {"", "\n\n", "  \r\n"}) {
    const auto empty = errors_of(read_helios_trace, text);
    REQUIRE(empty.size() == 1);
    CHECK(empty[0].where == "t");
    CHECK(empty[0].message == "empty file, expected a header line");
  }
  CHECK(read_text(read_helios_trace, HELIOS_HEADER).jobs.empty());
}

TEST_CASE("Reading a million Helios rows", "[.][perf]")
{
  check_million(read_helios_trace, [] {
    std::string text = HELIOS_HEADER;
    text.reserve(130'000'000);
    for (int i = 0; i < 1'000'000; ++i)
      text += helios_row(std::to_string(i), std::to_string(i % 9), "COMPLETED", timestamp("2020-06", i),
                         std::to_string(i % 7200));
    return text;
  }, "Helios rows");
}
