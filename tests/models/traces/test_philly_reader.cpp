// The Philly reader: the fixture, bad jobs and their diagnostics by job index and field path, the
// skip policy, fields it ignores, JSON syntax errors and inputs that are not a job log at all.
#include "models/traces/PhillyReader.hpp"
#include "tests/support/TraceFormatTesting.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("Philly fixture: last attempt's GPUs, first start to last end, statuses mapped", "[philly]")
{
  const std::string path = TRACE_DIR + "philly_small.json";
  const Workload w = read_philly_trace_file(path, BadRowPolicy::Error);
  CHECK(w.source == path);
  CHECK(w.skipped_rows == 0);
  REQUIRE(w.jobs.size() == 3);

  // Never scheduled: no attempts, nothing ran.
  const Job& never_ran = w.jobs[0];
  CHECK(never_ran.name == "application_1506638472019_00002");
  CHECK(never_ran.user == "a1b2c3");
  CHECK(never_ran.final_state == JobState::Cancelled);
  CHECK(never_ran.submit_s == 0.0);
  CHECK(never_ran.duration_s == 0.0);
  CHECK(never_ran.gpus == 0);
  CHECK(never_ran.trace_nodes == 0);

  const Job& retried = w.jobs[1];
  CHECK(retried.id == 1);
  CHECK(retried.name == "application_1506638472019_00001");
  CHECK(retried.user == "ce2f4c");
  CHECK(retried.type == JobType::Other);
  CHECK(retried.final_state == JobState::Completed);
  CHECK(retried.submit_s == 699.0);            // 01:11:39 - 01:00:00
  CHECK(retried.duration_s == 193263.0);       // 2017-10-07 01:12:09 .. 2017-10-09 06:53:12
  CHECK(retried.gpus == 12);                   // last attempt: 8 + 4, not the first attempt's 8
  CHECK(retried.trace_nodes == 2);
  CHECK(retried.cpus == 0);

  const Job& failed = w.jobs[2];
  CHECK(failed.final_state == JobState::Failed);
  CHECK(failed.user.get().empty()); // null user
  CHECK(failed.submit_s == 3540.0);
  CHECK(failed.duration_s == 630.0);
  CHECK(failed.gpus == 1);
  CHECK(failed.trace_nodes == 1);
}

TEST_CASE("Philly bad jobs name the job index, field path and value", "[philly][errors]")
{
  const std::string ok = philly_attempt("\"2017-10-07 01:00:00\"", "\"2017-10-07 02:00:00\"", 2);
  const std::string text =
      "[\n" + philly_job("j0", "Pass", "2017-10-07 00:00:00", "[" + ok + "]") + ",\n" +
      philly_job("j1", "Done", "2017-10-07 00:00:00", "[" + ok + "]") + ",\n" +
      philly_job("j2", "Pass", "2017-13-07 00:00:00", "[" + ok + "]") + ",\n" +
      philly_job("j3", "Pass", "2017-10-07 00:00:00",
                 "[" + ok + ", " + philly_attempt("\"2017-10-07 03:00:00\"", "null", 2) + "]") + ",\n" +
      philly_job("j4", "Pass", "2017-10-07 00:00:00",
                 "[" + philly_attempt("\"None\"", "\"2017-10-07 02:00:00\"", 2) + "]") + ",\n" +
      philly_job("j5", "Killed", "2017-10-07 00:00:00",
                 "[" + philly_attempt("\"2017-10-07 02:00:00\"", "\"2017-10-07 01:00:00\"", 1) + "]") + ",\n" +
      R"({"jobid": "j6", "submitted_time": "2017-10-07 00:00:00", "attempts": []})" + ",\n" +
      R"({"jobid": "j7", "status": "Pass", "submitted_time": "2017-10-07 00:00:00", "attempts": 3})" + ",\n" +
      "42,\n" +
      R"({"jobid": "j9", "status": "Pass", "submitted_time": "2017-10-07 00:00:00", "attempts": [)" +
      R"({"start_time": "2017-10-07 01:00:00", "end_time": "2017-10-07 01:00:05", "detail": [{"ip": "m1"}]}]})" +
      "\n]\n";
  const auto ds = errors_of(read_philly_trace, text);
  REQUIRE(ds.size() == 9);
  check_diagnostic(ds[0], "t:job 1", "status", "Done", "expected one of Pass, Killed, Failed");
  check_diagnostic(ds[1], "t:job 2", "submitted_time", "2017-13-07 00:00:00", "timestamp");
  check_diagnostic(ds[2], "t:job 3", "attempts[1].end_time", "null", "still running when the trace was taken");
  check_diagnostic(ds[3], "t:job 4", "attempts[0].start_time", "None", "does not record when the job first started");
  check_diagnostic(ds[4], "t:job 5", "attempts[0].end_time", "2017-10-07 01:00:00",
                   "not before the first attempt's start_time 2017-10-07 02:00:00");
  check_diagnostic(ds[5], "t:job 6", "status", "", "missing required field");
  check_diagnostic(ds[6], "t:job 7", "attempts", "3", "expected a list of attempts");
  check_diagnostic(ds[7], "t:job 8", "", "42", "expected a JSON object");
  check_diagnostic(ds[8], "t:job 9", "attempts[0].detail[0].gpus", "{...}", "list of GPU names");
}

TEST_CASE("Philly skip policy drops and counts bad jobs", "[philly][errors]")
{
  const std::string a = philly_attempt("\"2017-10-07 01:00:00\"", "\"2017-10-07 01:30:00\"", 4);
  const std::string text = "[" + philly_job("good1", "Pass", "2017-10-07 00:10:00", "[" + a + "]") + ", " +
                           philly_job("bad1", "Running", "2017-10-07 00:00:00", "[" + a + "]") + ", " +
                           philly_job("bad2", "Pass", "yesterday", "{}", "7") + ", " +
                           philly_job("good2", "Failed", "2017-10-07 00:20:00", "[]") + "]";
  const Workload w = read_text(read_philly_trace, text, BadRowPolicy::Skip);
  CHECK(w.skipped_rows == 2);
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "good1");
  CHECK(w.jobs[0].gpus == 4);
  CHECK(w.jobs[0].duration_s == 1800.0);
  CHECK(w.jobs[1].name == "good2");
  CHECK(w.jobs[1].submit_s == 600.0);
}

TEST_CASE("Philly: unknown and nested fields are ignored, integer job ids accepted", "[philly]")
{
  const std::string text =
      R"([[{"jobid": "in-a-list"}], {"jobid": 17, "status": "Pass", "submitted_time": "2017-10-07 00:00:00",)"
      R"( "extra": {"jobid": "nested", "attempts": [1]}, "user": "u9", "attempts": [{"start_time":)"
      R"( "2017-10-07 00:00:10", "end_time": "2017-10-07 00:00:40", "note": [{"gpus": ["x"]}], "detail":)"
      R"( [{"ip": "m1", "gpus": ["gpu0", "gpu1"], "more": {"gpus": [1, 2, 3]}}]}]}])";
  const Workload w = read_text(read_philly_trace, text, BadRowPolicy::Skip);
  CHECK(w.skipped_rows == 1); // the list where a job should be
  REQUIRE(w.jobs.size() == 1);
  CHECK(w.jobs[0].name == "17");
  CHECK(w.jobs[0].user == "u9");
  CHECK(w.jobs[0].gpus == 2);
  CHECK(w.jobs[0].trace_nodes == 1);
  CHECK(w.jobs[0].duration_s == 30.0);

  const auto ds = errors_of(read_philly_trace, text);
  REQUIRE(ds.size() == 1);
  check_diagnostic(ds[0], "t:job 0", "", "[...]", "expected a JSON object (one job)");
}

TEST_CASE("Philly JSON syntax errors give the line and column", "[philly][errors]")
{
  const auto ds = errors_of(read_philly_trace, "[\n {\"jobid\":\n tru}]");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].where == "t:3:5");
  CHECK_THAT(ds[0].message, Catch::StartsWith("JSON syntax error: ") && Catch::Contains("invalid literal"));
  CHECK_THAT(ds[0].message, !Catch::Contains("json.exception"));

  const auto truncated = errors_of(read_philly_trace, "[{\"jobid\": \"a\"");
  REQUIRE(truncated.size() == 1);
  CHECK_THAT(truncated[0].where, Catch::StartsWith("t:1:"));
  // Syntax errors are errors whatever the policy.
  CHECK_THROWS_AS(read_text(read_philly_trace, "[1,,2]", BadRowPolicy::Skip), InputError);
}

TEST_CASE("Philly empty input, wrong top level, and fields no job has", "[philly][errors]")
{
  for (const char* text : {"", " \n\t\r\n"}) {
    const auto ds = errors_of(read_philly_trace, text);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where == "t");
    CHECK(ds[0].message == "empty file, expected a JSON array of jobs");
  }
  for (const char* text : {R"({"jobid": "a"})", "42", "\"text\""}) {
    INFO(text);
    const auto ds = errors_of(read_philly_trace, text);
    REQUIRE(ds.size() == 1);
    CHECK_THAT(ds[0].message, Catch::Contains("expected a JSON array of jobs"));
  }
  CHECK(read_text(read_philly_trace, "[]").jobs.empty());

  // Not a Philly log at all: reported by field, even under the skip policy.
  const auto ds = errors_of(read_philly_trace, R"([{"id": 1, "state": "ok"}, {"id": 2, "submitted_time": "x"}])",
                            BadRowPolicy::Skip);
  REQUIRE(ds.size() == 3);
  check_diagnostic(ds[0], "t", "jobid", "",
                   "missing required field: no job has it (fields of the first job: id, state)");
  CHECK(ds[1].key == "status");
  CHECK(ds[2].key == "attempts");
}

TEST_CASE("Reading a million Philly jobs", "[.][perf]")
{
  check_million(read_philly_trace, [] {
    std::string text = "[";
    text.reserve(300'000'000);
    for (int i = 0; i < 1'000'000; ++i) {
      const std::string attempt = philly_attempt("\"" + timestamp("2017-10", i) + "\"",
                                                 "\"" + timestamp("2017-11", i) + "\"", 1 + i % 8);
      text += (i == 0 ? "" : ",\n") + philly_job("application_" + std::to_string(i), "Pass", timestamp("2017-10", i),
                                                 "[" + attempt + "]");
    }
    return text + "]";
  }, "Philly jobs");
}
