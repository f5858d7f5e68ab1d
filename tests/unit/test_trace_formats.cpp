#include "models/common/InputError.hpp"
#include "models/workload/HeliosReader.hpp"
#include "models/workload/PhillyReader.hpp"
#include "models/workload/SwfReader.hpp"
#include "models/workload/TraceFormat.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>

using namespace acmesim;

namespace {

const std::string TRACE_DIR = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/";

using Reader = Workload (*)(std::istream&, const std::string&, BadRowPolicy);

Workload read_text(Reader reader, const std::string& text, BadRowPolicy policy = BadRowPolicy::Error)
{
  std::istringstream in(text);
  return reader(in, "t", policy);
}

// Diagnostics of the InputError that reading `text` throws; fails the test if nothing is thrown.
std::vector<Diagnostic> errors_of(Reader reader, const std::string& text, BadRowPolicy policy = BadRowPolicy::Error)
{
  try {
    read_text(reader, text, policy);
  } catch (const InputError& e) {
    return e.diagnostics();
  }
  FAIL("expected an InputError");
  return {};
}

void check_diagnostic(const Diagnostic& d, const std::string& where, const std::string& key, const std::string& value,
                      const std::string& in_message)
{
  INFO(d.to_string());
  CHECK(d.where == where);
  CHECK(d.key == key);
  CHECK(d.value == value);
  CHECK_THAT(d.message, Catch::Contains(in_message));
}

// One SWF line: the fields read by acmesim as given, the others -1.
std::string swf_line(const std::string& job, const std::string& submit, const std::string& run,
                     const std::string& allocated, const std::string& requested, const std::string& status,
                     const std::string& user = "1")
{
  return job + " " + submit + " -1 " + run + " " + allocated + " -1 -1 " + requested + " -1 -1 " + status + " " +
         user + " -1 -1 -1 -1 -1 -1\n";
}

std::string philly_job(const std::string& id, const std::string& status, const std::string& submitted,
                       const std::string& attempts, const std::string& user = "\"u\"")
{
  return R"({"jobid": ")" + id + R"(", "status": ")" + status + R"(", "submitted_time": ")" + submitted +
         R"(", "user": )" + user + R"(, "vc": "v", "attempts": )" + attempts + "}";
}

std::string philly_attempt(const std::string& start, const std::string& end, int gpus)
{
  std::string list;
  for (int g = 0; g < gpus; ++g)
    list += (g == 0 ? "\"gpu" : ", \"gpu") + std::to_string(g) + "\"";
  return R"({"start_time": )" + start + R"(, "end_time": )" + end + R"(, "detail": [{"ip": "m1", "gpus": [)" + list +
         "]}]}";
}

const std::string HELIOS_HEADER =
    "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n";

std::string helios_row(const std::string& id, const std::string& gpus, const std::string& state,
                       const std::string& submit, const std::string& duration)
{
  return id + ",u1,vc1," + gpus + ",4,1," + state + "," + submit + ",2020-06-09 18:00:00,2020-06-09 19:00:00," +
         duration + ",0\n";
}

} // namespace

// ---------------------------------------------------------------------------------------- SWF

TEST_CASE("SWF fixture: processors read as GPUs, statuses mapped, partial records passed over", "[swf]")
{
  const std::string path = TRACE_DIR + "pwa_small.swf";
  const Workload w = read_swf_trace_file(path, BadRowPolicy::Error);
  CHECK(w.source == path);
  CHECK(w.skipped_rows == 0);
  REQUIRE(w.jobs.size() == 6);

  const Job& first = w.jobs[0];
  CHECK(first.id == 0);
  CHECK(first.name == "1");
  CHECK(first.user == "3");
  CHECK(first.type == JobType::Other);
  CHECK(first.gpus == 8);
  CHECK(first.trace_nodes == 0);
  CHECK(first.cpus == 0);
  CHECK(first.submit_s == 0.0);
  CHECK(first.duration_s == 3600.0);
  CHECK(first.final_state == JobState::Completed);

  // Submitted out of order in the file: sorted by submission.
  CHECK(w.jobs[1].name == "4");
  CHECK(w.jobs[1].submit_s == 10.0);
  CHECK(w.jobs[1].duration_s == 0.0);
  CHECK(w.jobs[1].gpus == 1);
  CHECK(w.jobs[1].user == "7");

  // Allocated processors unknown: the requested ones count.
  CHECK(w.jobs[2].name == "2");
  CHECK(w.jobs[2].gpus == 16);
  CHECK(w.jobs[2].final_state == JobState::Cancelled);
  CHECK(w.jobs[2].duration_s == 120.0);

  // Job 3 appears once, from its whole-job line, not from its partial executions.
  CHECK(w.jobs[3].name == "3");
  CHECK(w.jobs[3].id == 3);
  CHECK(w.jobs[3].final_state == JobState::Failed);
  CHECK(w.jobs[3].duration_s == 50.5);
  CHECK(w.jobs[3].user.empty()); // user id -1
  CHECK(w.jobs[3].submit_s == 60.0);

  // Status -1 (unknown) replays as completed; a tab-indented line and a CRLF line read as well.
  CHECK(w.jobs[4].name == "5");
  CHECK(w.jobs[4].final_state == JobState::Completed);
  CHECK(w.jobs[4].gpus == 32);
  CHECK(w.jobs[4].user == "12");
  CHECK(w.jobs[5].name == "6");
  CHECK(w.jobs[5].submit_s == 100.0);
  CHECK(w.jobs[5].user == "3");
}

TEST_CASE("SWF bad rows name the line, field and value", "[swf][errors]")
{
  const std::string text = "; header comment\n" + swf_line("1", "0", "10", "4", "4", "1") + // line 2, fine
                           swf_line("2", "0", "-1", "4", "4", "1") +                      // 3
                           swf_line("3", "0", "nan", "4", "4", "1") +                     // 4
                           swf_line("4", "0", "-5", "4", "4", "1") +                      // 5
                           swf_line("5", "-1", "10", "4", "4", "1") +                     // 6
                           swf_line("6", "0", "10", "-1", "-1", "1") +                    // 7
                           swf_line("7", "0", "10", "2.5", "4", "1") +                    // 8
                           swf_line("8", "0", "10", "4", "4", "7") +                      // 9
                           "9 0 -1 10 4\n" +                                              // 10
                           "10 0 -1 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1 99\n" +                   // 11
                           swf_line("11", "0", "10", "-4", "4", "done");                  // 12
  const auto ds = errors_of(read_swf_trace, text);
  REQUIRE(ds.size() == 11);
  check_diagnostic(ds[0], "t:3", "field 4 (run time)", "-1", "unknown (-1): the run time is needed");
  check_diagnostic(ds[1], "t:4", "field 4 (run time)", "nan", "non-negative number of seconds");
  check_diagnostic(ds[2], "t:5", "field 4 (run time)", "-5", "non-negative number of seconds");
  check_diagnostic(ds[3], "t:6", "field 2 (submit time)", "-1", "unknown (-1): a job needs its submit time");
  check_diagnostic(ds[4], "t:7", "field 5 (allocated processors)", "-1",
                   "and so is field 8 (requested processors)");
  check_diagnostic(ds[5], "t:8", "field 5 (allocated processors)", "2.5", "non-negative integer");
  check_diagnostic(ds[6], "t:9", "field 11 (status)", "7", "1 (completed), 0 (failed), 5 (cancelled)");
  check_diagnostic(ds[7], "t:10", "", "", "expected 18 whitespace-separated fields, found 5");
  CHECK_THAT(ds[7].message, Catch::Contains("missing field 6 (average CPU time) to field 18 (think time)"));
  check_diagnostic(ds[8], "t:11", "", "", "expected 18 whitespace-separated fields, found 19");
  CHECK_THAT(ds[8].message, !Catch::Contains("missing"));
  // Every bad field of a row is reported.
  check_diagnostic(ds[9], "t:12", "field 11 (status)", "done", "expected a status");
  check_diagnostic(ds[10], "t:12", "field 5 (allocated processors)", "-4", "non-negative integer");
}

TEST_CASE("SWF skip policy drops and counts bad rows", "[swf][errors]")
{
  const std::string text = swf_line("1", "100", "10", "4", "4", "1") + swf_line("2", "50", "-1", "4", "4", "1") +
                           swf_line("3", "60", "x", "y", "4", "9") + "short line\n" +
                           swf_line("4", "150", "20", "2", "4", "0", "-1");
  const Workload w = read_text(read_swf_trace, text, BadRowPolicy::Skip);
  CHECK(w.skipped_rows == 3); // row 3 has three bad fields but is one row
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "1");
  CHECK(w.jobs[0].submit_s == 0.0);
  CHECK(w.jobs[1].name == "4");
  CHECK(w.jobs[1].submit_s == 50.0);
  CHECK(w.jobs[1].final_state == JobState::Failed);
  CHECK(w.jobs[1].gpus == 2);
}

TEST_CASE("SWF: the list of problems is capped and the rest are counted", "[swf][errors]")
{
  std::string text;
  for (int i = 0; i < 60; ++i)
    text += swf_line(std::to_string(i), "0", "-1", "1", "1", "1");
  const auto ds = errors_of(read_swf_trace, text);
  REQUIRE(ds.size() == 51);
  CHECK(ds[0].where == "t:1");
  CHECK(ds[49].where == "t:50");
  CHECK(ds[50].where == "t");
  CHECK_THAT(ds[50].message, Catch::Contains("10 more problems not shown") && Catch::Contains("60 bad rows"));
}

TEST_CASE("SWF empty input is an error, a comment-only log is an empty workload", "[swf][errors]")
{
  for (const char* text : {"", "\n\n", "  \r\n"}) {
    const auto ds = errors_of(read_swf_trace, text);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where == "t");
    CHECK_THAT(ds[0].message, Catch::Contains("empty file"));
  }
  const Workload w = read_text(read_swf_trace, "; Version: 2.2\n; MaxProcs: 8\n");
  CHECK(w.jobs.empty());
  CHECK(w.skipped_rows == 0);
}

// ------------------------------------------------------------------------------------- Philly

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
  CHECK(failed.user.empty()); // null user
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

// ------------------------------------------------------------------------------------- Helios

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

// ----------------------------------------------------------------------------- format dispatch

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

// ------------------------------------------------------------------------ hidden: performance
// Run with `unit_trace_formats "[perf]"`: a million jobs of each format must take seconds.

namespace {

template <class MakeText> void check_million(Reader reader, MakeText make_text, const char* what)
{
  std::istringstream in(make_text());
  const auto start = std::chrono::steady_clock::now();
  const Workload w = reader(in, "big", BadRowPolicy::Error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("1e6 " << what << " read in " << seconds << " s");
  CHECK(w.jobs.size() == 1'000'000);
  CHECK(seconds < 5.0);
}

std::string timestamp(const char* prefix, int i)
{
  char text[32];
  std::snprintf(text, sizeof text, "%s-%02d %02d:%02d:%02d", prefix, 1 + i / 86400, (i / 3600) % 24, (i / 60) % 60,
                i % 60);
  return text;
}

} // namespace

TEST_CASE("Reading a million SWF jobs", "[.][perf]")
{
  check_million(read_swf_trace, [] {
    std::string text = "; Version: 2.2\n";
    text.reserve(80'000'000);
    for (int i = 0; i < 1'000'000; ++i)
      text += swf_line(std::to_string(i + 1), std::to_string(i), std::to_string(i % 7200), std::to_string(1 + i % 64),
                       "-1", "1", std::to_string(i % 500));
    return text;
  }, "SWF lines");
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
