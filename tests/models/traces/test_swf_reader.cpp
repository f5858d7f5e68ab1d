// The SWF reader: the Parallel Workloads Archive's fixture, bad rows and their diagnostics, the
// skip policy, the cap on listed problems and empty inputs.
#include "models/traces/SwfHeader.hpp"
#include "models/traces/SwfReader.hpp"
#include "tests/support/TraceFormatTesting.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// The reader in the shape the shared trace-format helpers take (unknown fields are bad rows).
Workload read_swf(std::istream& in, const std::string& source, BadRowPolicy on_bad_row)
{
  return read_swf_trace(in, source, on_bad_row);
}

} // namespace

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
  CHECK(w.jobs[3].user.get().empty()); // user id -1
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

TEST_CASE("SWF: the wait the log recorded (field 3) is kept, -1 as none, and a bad one is a bad row", "[swf]")
{
  const Workload w = read_swf_trace_file(TRACE_DIR + "pwa_small.swf", BadRowPolicy::Error);
  CHECK(w.jobs[0].recorded_wait_s == 10); // job 1
  CHECK(w.jobs[1].recorded_wait_s == 0);  // job 4
  CHECK(w.jobs[2].recorded_wait_s == -1); // job 2: unknown
  CHECK(w.jobs[3].recorded_wait_s == 5);  // job 3, from its whole-job line

  const auto errors = errors_of(read_swf, "1 0 x 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  REQUIRE(errors.size() == 1);
  check_diagnostic(errors[0], "t:1", "field 3 (wait time)", "x", "or -1 (unknown)");
}

TEST_CASE("SWF: the requested time and processors (9, 8), group, queue and partition (13, 15, 16) are kept",
          "[swf]")
{
  const Workload w = read_swf_trace_file(TRACE_DIR + "pwa_small.swf", BadRowPolicy::Error);
  const Job& first = w.jobs[0]; // job 1
  CHECK(first.requested_s == 7200);
  CHECK(first.requested_procs == 8);
  CHECK(first.recorded_labels() == RecordedLabels{"1", "1", "1"});
  const Job& four = w.jobs[1]; // job 4: requested time and processors unknown
  CHECK(four.requested_s == -1);
  CHECK(four.requested_procs == -1);
  CHECK(four.recorded_labels() == RecordedLabels{"2", "1", "1"});
  CHECK(w.jobs[2].requested_s == 600); // job 2, of unknown allocation
  CHECK(w.jobs[2].requested_procs == 16);
  CHECK(w.jobs[3].recorded_labels() == RecordedLabels{"", "1", "1"}); // job 3: group -1

  // A field the replay does not need but reads is checked as well.
  auto errors = errors_of(read_swf, "1 0 0 10 4 -1 -1 4 soon -1 1 1 -1 -1 -1 -1 -1 -1\n");
  REQUIRE(errors.size() == 1);
  check_diagnostic(errors[0], "t:1", "field 9 (requested time)", "soon", "or -1 (unknown)");
  errors = errors_of(read_swf, "1 0 0 10 4 -1 -1 2.5 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  REQUIRE(errors.size() == 1);
  check_diagnostic(errors[0], "t:1", "field 8 (requested processors)", "2.5", "integer number of processors");
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
  const auto ds = errors_of(read_swf, text);
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
  const Workload w = read_text(read_swf, text, BadRowPolicy::Skip);
  CHECK(w.skipped_rows == 3); // row 3 has three bad fields but is one row
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "1");
  CHECK(w.jobs[0].submit_s == 0.0);
  CHECK(w.jobs[1].name == "4");
  CHECK(w.jobs[1].submit_s == 50.0);
  CHECK(w.jobs[1].final_state == JobState::Failed);
  CHECK(w.jobs[1].gpus == 2);
}

TEST_CASE("SWF on_unknown drop leaves out and counts jobs of unknown submit time, run time or size", "[swf]")
{
  const std::string text = swf_line("1", "100", "10", "4", "4", "1") +  // kept
                           swf_line("2", "-1", "10", "4", "4", "1") +   // unknown submit time
                           swf_line("3", "110", "-1", "4", "4", "5") +  // unknown run time
                           swf_line("4", "120", "10", "-1", "-1", "1") + // unknown size (both fields)
                           swf_line("5", "-1", "-1", "-1", "-1", "1") + // unknown in all three: one job
                           swf_line("6", "130", "10", "-1", "8", "1") + // requested size known: kept
                           swf_line("7", "140", "-1", "4", "4", "9") +  // dropped before its bad status is read
                           swf_line("8", "150", "-2", "4", "4", "1");   // not unknown but wrong: a bad row
  std::istringstream in(text);
  const Workload w = read_swf_trace(in, "t", BadRowPolicy::Skip, UnknownPolicy::Drop);
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "1");
  CHECK(w.jobs[1].name == "6");
  CHECK(w.jobs[1].gpus == 8);
  CHECK(w.dropped_unknown.jobs == 5);
  CHECK(w.dropped_unknown.submit_time == 2);
  CHECK(w.dropped_unknown.run_time == 3);
  CHECK(w.dropped_unknown.size == 2);
  CHECK(w.skipped_rows == 1);

  // Without the filter the same unknown fields are bad rows, and nothing is counted as dropped.
  std::istringstream again(text);
  const Workload strict = read_swf_trace(again, "t", BadRowPolicy::Skip, UnknownPolicy::Error);
  CHECK(strict.jobs.size() == 2);
  CHECK(strict.skipped_rows == 6);
  CHECK(strict.dropped_unknown.jobs == 0);
}

TEST_CASE("SWF header: the machine's Computer, MaxNodes and MaxProcs, up to the first job line", "[swf]")
{
  std::istringstream in("; Version: 2.2\n;   computer :  IBM SP2 (SDSC)\n; MAXNODES: 128 (batch partition)\n"
                        ";MaxProcs:1024\n\n" +
                        swf_line("1", "0", "10", "4", "4", "1") + "; MaxNodes: 7\n");
  const SwfMachine m = read_swf_machine(in, "t");
  CHECK(m.computer == "IBM SP2 (SDSC)");
  REQUIRE(m.max_nodes);
  CHECK(m.max_nodes->value == 128);
  CHECK(m.max_nodes->line == 3);
  REQUIRE(m.max_procs);
  CHECK(m.max_procs->value == 1024);
  CHECK(m.max_procs->line == 4);

  std::istringstream none("; Version: 2.2\n" + swf_line("1", "0", "10", "4", "4", "1"));
  const SwfMachine unknown = read_swf_machine(none, "t");
  CHECK(unknown.computer.empty());
  CHECK_FALSE(unknown.max_nodes);
  CHECK_FALSE(unknown.max_procs);

  for (const char* value : {"-1", "0", "12.5", "many", ""}) {
    std::istringstream bad(std::string("; Computer: x\n; MaxProcs: ") + value + "\n");
    try {
      read_swf_machine(bad, "t");
      FAIL("expected an InputError for MaxProcs " << value);
    } catch (const InputError& e) {
      REQUIRE(e.diagnostics().size() == 1);
      check_diagnostic(e.diagnostics()[0], "t:2", "MaxProcs", value, "positive whole number");
    }
  }
}

TEST_CASE("SWF: the list of problems is capped and the rest are counted", "[swf][errors]")
{
  std::string text;
  for (int i = 0; i < 60; ++i)
    text += swf_line(std::to_string(i), "0", "-1", "1", "1", "1");
  const auto ds = errors_of(read_swf, text);
  REQUIRE(ds.size() == 51);
  CHECK(ds[0].where == "t:1");
  CHECK(ds[49].where == "t:50");
  CHECK(ds[50].where == "t");
  CHECK_THAT(ds[50].message, Catch::Contains("10 more problems not shown") && Catch::Contains("60 bad rows"));
}

TEST_CASE("SWF empty input is an error, a comment-only log is an empty workload", "[swf][errors]")
{
  for (const char* text : {"", "\n\n", "  \r\n"}) {
    const auto ds = errors_of(read_swf, text);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where == "t");
    CHECK_THAT(ds[0].message, Catch::Contains("empty file"));
  }
  const Workload w = read_text(read_swf, "; Version: 2.2\n; MaxProcs: 8\n");
  CHECK(w.jobs.empty());
  CHECK(w.skipped_rows == 0);
}

TEST_CASE("Reading a million SWF jobs", "[.][perf]")
{
  check_million(read_swf, [] {
    std::string text = "; Version: 2.2\n";
    text.reserve(80'000'000);
    for (int i = 0; i < 1'000'000; ++i)
      text += swf_line(std::to_string(i + 1), std::to_string(i), std::to_string(i % 7200), std::to_string(1 + i % 64),
                       "-1", "1", std::to_string(i % 500));
    return text;
  }, "SWF lines");
}
