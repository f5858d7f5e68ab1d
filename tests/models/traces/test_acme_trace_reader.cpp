#include "models/common/InputError.hpp"
#include "models/traces/AcmeTraceReader.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

using namespace acmesim;

namespace {

const std::string TRACE_DIR = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/";

const std::string SEREN_HEADER =
    "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n";

Workload read_text(const std::string& text, BadRowPolicy policy = BadRowPolicy::Error)
{
  std::istringstream in(text);
  return read_acme_trace(in, "t.csv", policy);
}

// Diagnostics of the InputError that reading `text` throws; fails the test if nothing is thrown.
std::vector<Diagnostic> errors_of(const std::string& text)
{
  try {
    read_text(text);
  } catch (const InputError& e) {
    return e.diagnostics();
  }
  FAIL("expected an InputError");
  return {};
}

std::string seren_row(const std::string& id, const std::string& gpus, const std::string& type,
                      const std::string& state, const std::string& submit, const std::string& duration)
{
  return id + ",u1,1," + gpus + ",16," + type + "," + state + "," + submit +
         ",2023-03-01 00:00:00+08:00,2023-03-01 01:00:00+08:00," + duration + ",0,0\n";
}

} // namespace

TEST_CASE("parse_timestamp gives hand-computed epoch seconds", "[trace][time]")
{
  // 2023-03-01 00:00 UTC is 1677628800; 00:18:22 at +08:00 is 8 h earlier plus 1102 s.
  CHECK(parse_timestamp("2023-03-01 00:18:22+08:00") == Approx(1677601102.0).margin(1e-6));
  CHECK(parse_timestamp("1970-01-01 00:00:00+00:00") == Approx(0.0).margin(1e-9));
  CHECK(parse_timestamp("1969-12-31 23:59:59Z") == Approx(-1.0).margin(1e-9));
  CHECK(parse_timestamp("2000-02-29 12:00:00") == Approx(951825600.0).margin(1e-6));
  CHECK(parse_timestamp("2023-05-17 03:12:45+00:00") == Approx(1684293165.0).margin(1e-6));
}

TEST_CASE("parse_timestamp: one instant written in several zones and styles", "[trace][time]")
{
  const double utc = *parse_timestamp("2023-02-28 16:18:22+00:00");
  for (const char* text : {"2023-03-01 00:18:22+08:00", "2023-03-01T00:18:22+08:00", "2023-03-01 00:18:22+0800",
                           "2023-03-01 00:18:22+08", "2023-02-28 16:18:22Z", "2023-02-28T16:18:22Z",
                           "2023-02-28 16:18:22", "2023-02-28 11:18:22-05:00", "2023-02-28 21:48:22+05:30",
                           " 2023-03-01 00:18:22+08:00 "}) {
    INFO(text);
    const auto parsed = parse_timestamp(text);
    REQUIRE(parsed.has_value());
    CHECK(*parsed == Approx(utc).margin(1e-6));
  }
  const auto fractional = parse_timestamp("2023-03-01 00:18:22.250+08:00");
  REQUIRE(fractional.has_value());
  CHECK(*fractional - utc == Approx(0.25).margin(1e-6));
}

TEST_CASE("parse_timestamp rejects malformed or impossible timestamps", "[trace][time]")
{
  for (const char* text :
       {"", "garbage", "2023-03-01", "2023-03-01 00:18", "2023/03/01 00:18:22", "2023-3-1 00:18:22",
        "23-03-01 00:18:22", "2023-13-01 00:00:00", "2023-00-10 00:00:00", "2023-01-32 00:00:00",
        "2023-02-30 00:00:00", "2023-02-29 00:00:00", "2023-04-31 00:00:00", "2023-03-01 24:00:00",
        "2023-03-01 00:60:00", "2023-03-01 00:00:60", "2023-03-01 00:18:22.", "2023-03-01 00:18:22+08:60",
        "2023-03-01 00:18:22+25:00", "2023-03-01 00:18:22+15:00", "2023-03-01 00:18:22+8:00",
        "2023-03-01 00:18:22+08:00x", "2023-03-01 00:18:22Zx", "2023-03-01 00:18:22 +08:00",
        "2023-03-01x00:18:22", "2023-03-01 00:18:22+08:", "nan", "1677601102"}) {
    INFO(text);
    CHECK_FALSE(parse_timestamp(text).has_value());
  }
}

TEST_CASE("Seren fixture: jobs parsed, sorted by submission and rebased", "[trace]")
{
  const std::string path = TRACE_DIR + "seren_small.csv";
  const Workload w = read_acme_trace_file(path, BadRowPolicy::Error);
  CHECK(w.source == path);
  CHECK(w.skipped_rows == 0);
  REQUIRE(w.jobs.size() == 6);

  const Job& first = w.jobs[0];
  CHECK(first.id == 0);
  CHECK(first.name == "dlc0aaaabbbbcccc");
  CHECK(first.user == "u0007");
  CHECK(first.type == JobType::Debug);
  CHECK(first.final_state == JobState::Timeout);
  CHECK(first.gpus == 4);
  CHECK(first.trace_nodes == 1);
  CHECK(first.cpus == 64);
  CHECK(first.submit_s == 0.0);
  CHECK(first.duration_s == 14400.0);

  // Same submission second: source order breaks the tie.
  CHECK(w.jobs[1].name == "dlc1hjb4r6l4x6rm");
  CHECK(w.jobs[1].type == JobType::Pretrain);
  CHECK(w.jobs[1].final_state == JobState::Completed);
  CHECK(w.jobs[1].gpus == 8);
  CHECK(w.jobs[1].cpus == 128);
  CHECK(w.jobs[1].submit_s == Approx(1103.0));
  CHECK(w.jobs[1].duration_s == 7200.0);
  CHECK(w.jobs[2].name == "dlc2a7b3c9d0e1f2");
  CHECK(w.jobs[2].id == 2);
  CHECK(w.jobs[2].type == JobType::SFT);
  CHECK(w.jobs[2].final_state == JobState::Failed);
  CHECK(w.jobs[2].gpus == 16);
  CHECK(w.jobs[2].trace_nodes == 2);
  CHECK(w.jobs[2].submit_s == Approx(1103.0));

  CHECK(w.jobs[3].name == "dlc1q9f2kx0m7zvd");
  CHECK(w.jobs[3].cpu_only());
  CHECK(w.jobs[3].trace_nodes == 0);
  CHECK(w.jobs[3].submit_s == Approx(1201.0));
  CHECK(w.jobs[3].duration_s == 30.0);

  CHECK(w.jobs[4].name == "dlc3x8y7z6w5v4u3");
  CHECK(w.jobs[4].type == JobType::Eval);
  CHECK(w.jobs[4].final_state == JobState::Cancelled);
  CHECK(w.jobs[4].submit_s == Approx(3601.0));
  CHECK(w.jobs[4].duration_s == 0.0);

  CHECK(w.jobs[5].type == JobType::MLLM);
  CHECK(w.jobs[5].final_state == JobState::NodeFail);
  CHECK(w.jobs[5].gpus == 32);
  CHECK(w.jobs[5].id == 5);
  CHECK(w.jobs[5].submit_s == Approx(10801.0));

  // `queue`: the recorded queueing delay, kept for statistics (as written, also for a job that
  // never started).
  CHECK(w.jobs[0].recorded_wait_s == 11.0);
  CHECK(w.jobs[2].recorded_wait_s == 120.0);
  CHECK(w.jobs[3].recorded_wait_s == 0.0);
  CHECK(w.jobs[4].recorded_wait_s == 0.0);
  CHECK(w.jobs[0].home.get().empty()); // an Acme trace names no cluster
}

TEST_CASE("A run's jobs.csv reads back: seconds, the pod as home, wait_s as the recorded delay", "[trace]")
{
  const Workload w = read_acme_trace_file(TRACE_DIR + "jobs.csv", BadRowPolicy::Error, CsvSchema::Run);
  REQUIRE(w.jobs.size() == 4);
  const Job& eval = w.jobs[0];
  CHECK(eval.name == "seren-acme-0");
  CHECK(eval.type == JobType::Eval);
  CHECK(eval.gpus == 1);
  CHECK(eval.trace_nodes == 1);
  CHECK(eval.cpus == 16);
  CHECK(eval.submit_s == 0.0);
  CHECK(eval.duration_s == 100.0); // end_s - start_s
  CHECK(eval.recorded_wait_s == 12.5);
  CHECK(eval.home == "seren");
  const Job& pretrain = w.jobs[1];
  CHECK(pretrain.final_state == JobState::Cancelled);
  CHECK(pretrain.submit_s == 5.0);
  CHECK(pretrain.duration_s == 3600.0);
  CHECK(pretrain.recorded_wait_s == 15.0);
  CHECK(pretrain.home == "kalos");
  CHECK(w.jobs[2].cpu_only());
  CHECK(w.jobs[2].home.get().empty());
  // REJECTED (larger than any pod): never started, read as cancelled while pending.
  const Job& rejected = w.jobs[3];
  CHECK(rejected.user == "u,4");
  CHECK(rejected.final_state == JobState::Cancelled);
  CHECK(rejected.duration_s == 0.0);
  CHECK(rejected.recorded_wait_s < 0);

  // Its times are seconds: a timestamp there is a bad row, named by the run's column.
  std::istringstream bad("job_id,type,gpus,state,submit_s,start_s,end_s,wait_s\n"
                         "j,Eval,1,COMPLETED,2023-03-01 00:00:00,1,2,1\n");
  try {
    read_acme_trace(bad, "jobs.csv", BadRowPolicy::Error, CsvSchema::Run);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].where == "jobs.csv:2");
    CHECK(e.diagnostics()[0].key == "submit_s");
    CHECK(e.diagnostics()[0].message == "expected a non-negative number of seconds, at most 1e9");
  }
}

TEST_CASE("Kalos fixture: extra columns, other column order, UTC timestamps, quoted field", "[trace]")
{
  const Workload w = read_acme_trace_file(TRACE_DIR + "kalos_small.csv", BadRowPolicy::Error);
  REQUIRE(w.jobs.size() == 3);
  CHECK(w.jobs[0].name == "kal00000000000a2");
  CHECK(w.jobs[0].user == "u,0101");
  CHECK(w.jobs[0].type == JobType::Eval);
  CHECK(w.jobs[0].final_state == JobState::Failed);
  CHECK(w.jobs[0].gpus == 8);
  CHECK(w.jobs[0].submit_s == 0.0);
  CHECK(w.jobs[0].duration_s == 100.0);

  CHECK(w.jobs[1].name == "kal00000000000a1");
  CHECK(w.jobs[1].type == JobType::Pretrain);
  CHECK(w.jobs[1].gpus == 128);
  CHECK(w.jobs[1].trace_nodes == 16);
  CHECK(w.jobs[1].cpus == 2048);
  CHECK(w.jobs[1].submit_s == Approx(765.0));
  CHECK(w.jobs[1].duration_s == 86400.0);

  CHECK(w.jobs[2].name == "kal00000000000a3");
  CHECK(w.jobs[2].cpu_only());
  CHECK(w.jobs[2].final_state == JobState::Cancelled);
  CHECK(w.jobs[2].submit_s == Approx(3600.0));
  CHECK(w.jobs[2].duration_s == 0.0);
}

TEST_CASE("Duration falls back to end - start, and is 0 for a job cancelled while pending", "[trace]")
{
  const std::string text = "job_id,gpu_num,type,state,submit_time,start_time,end_time\n"
                           "a,8,Pretrain,COMPLETED,2023-03-01 00:00:00+08:00,2023-03-01 00:00:10+08:00,"
                           "2023-03-01 01:00:10+08:00\n"
                           "b,1,Eval,CANCELLED,2023-03-01 00:00:05+08:00,,\n"
                           "c,1,Eval,CANCELLED,2023-03-01 00:00:06+08:00,,2023-03-01 00:09:00+08:00\n"
                           "d,2,SFT,COMPLETED,2023-03-01 00:00:07+08:00,2023-02-28 16:00:10Z,"
                           "2023-03-01 00:00:10.5+08:00\n";
  const Workload w = read_text(text);
  REQUIRE(w.jobs.size() == 4);
  CHECK(w.jobs[0].duration_s == 3600.0);
  CHECK(w.jobs[0].user.get().empty());
  CHECK(w.jobs[0].trace_nodes == 0);
  CHECK(w.jobs[0].cpus == 0);
  CHECK(w.jobs[1].duration_s == 0.0);
  CHECK(w.jobs[2].duration_s == 0.0);
  CHECK(w.jobs[3].duration_s == Approx(0.5));

  // An empty duration cell also falls back, and a present duration wins over start/end.
  const Workload mixed = read_text(SEREN_HEADER + seren_row("x", "1", "SFT", "COMPLETED", "2023-03-01 00:00:00Z", "") +
                                   seren_row("y", "1", "SFT", "COMPLETED", "2023-03-01 00:00:01Z", "42.5"));
  REQUIRE(mixed.jobs.size() == 2);
  CHECK(mixed.jobs[0].duration_s == 3600.0);
  CHECK(mixed.jobs[1].duration_s == 42.5);
}

TEST_CASE("Bad rows: one error lists every problem with line, column and value", "[trace][errors]")
{
  const std::string text = SEREN_HEADER + seren_row("ok1", "8", "Pretrain", "COMPLETED", "2023-03-01 00:00:00Z", "10") +
                           "\n" + // empty line 3 is ignored but still counted
                           seren_row("b4", "eight", "Pretrain", "COMPLETED", "2023-03-01 00:00:00Z", "10") +
                           seren_row("b5", "8", "Training", "COMPLETED", "2023-03-01 00:00:00Z", "10") +
                           seren_row("b6", "8", "SFT", "DONE", "2023-03-01 00:00:00Z", "10") +
                           seren_row("b7", "8", "SFT", "FAILED", "2023-02-30 00:00:00Z", "10") +
                           seren_row("b8", "8", "SFT", "FAILED", "2023-03-01 00:00:00Z", "-5") +
                           seren_row("b9", "-1", "SFT", "FAILED", "2023-03-01 00:00:00Z", "nan") +
                           "b10,u1,1,8\n" +
                           "b11,u1,1,8,16,SFT,FAILED,2023-03-01 00:00:00Z,2023-03-01 02:00:00Z,"
                           "2023-03-01 01:00:00Z,,0,0\n" +
                           "b12,\"u1,1,8,16,SFT,FAILED,2023-03-01 00:00:00Z,,,,0,0\n" +
                           seren_row("ok2", "1", "Eval", "COMPLETED", "2023-03-01 00:00:01Z", "inf");
  const auto ds = errors_of(text);
  REQUIRE(ds.size() == 11);

  auto check = [&](std::size_t i, const char* where, const char* key, const char* value, const char* in_message) {
    INFO("diagnostic " << i << ": " << ds[i].to_string());
    CHECK(ds[i].where == where);
    CHECK(ds[i].key == key);
    CHECK(ds[i].value == value);
    CHECK_THAT(ds[i].message, Catch::Contains(in_message));
  };
  check(0, "t.csv:4", "gpu_num", "eight", "non-negative integer");
  check(1, "t.csv:5", "type", "Training", "expected one of Pretrain, Eval, SFT, MLLM, Debug, Other");
  check(2, "t.csv:6", "state", "DONE", "expected one of COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL");
  check(3, "t.csv:7", "submit_time", "2023-02-30 00:00:00Z", "timestamp");
  check(4, "t.csv:8", "duration", "-5", "non-negative number of seconds");
  // Every bad field of a row is reported, not only the first.
  check(5, "t.csv:9", "gpu_num", "-1", "non-negative integer");
  check(6, "t.csv:9", "duration", "nan", "non-negative number of seconds");
  check(7, "t.csv:10", "", "", "expected 13 fields as in the header, found 4");
  check(8, "t.csv:11", "end_time", "2023-03-01 01:00:00Z", "not before start_time 2023-03-01 02:00:00Z");
  check(9, "t.csv:12", "", "", "closing '\"'");
  check(10, "t.csv:13", "duration", "inf", "non-negative number of seconds");
}

TEST_CASE("Bad rows: the skip policy drops and counts them", "[trace][errors]")
{
  const std::string text = SEREN_HEADER + seren_row("ok1", "8", "Pretrain", "COMPLETED", "2023-03-01 00:00:10Z", "10") +
                           seren_row("bad1", "1.5", "Pretrain", "COMPLETED", "2023-03-01 00:00:00Z", "10") +
                           seren_row("bad2", "x", "Nope", "COMPLETED", "2023-03-01 00:00:00Z", "10") + "short,row\n" +
                           seren_row("ok2", "2.0", "Eval", "FAILED", "2023-03-01 00:00:20Z", "20");
  const Workload w = read_text(text, BadRowPolicy::Skip);
  CHECK(w.skipped_rows == 3); // bad2 has two bad fields but is one row
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "ok1");
  CHECK(w.jobs[0].submit_s == 0.0);
  CHECK(w.jobs[1].name == "ok2");
  CHECK(w.jobs[1].gpus == 2); // pandas-style "2.0" is an integer
  CHECK(w.jobs[1].submit_s == 10.0);

  CHECK(read_text(text.substr(0, text.find("bad1")), BadRowPolicy::Skip).skipped_rows == 0);
}

TEST_CASE("Bad rows: the list is capped and the rest are counted", "[trace][errors]")
{
  std::string text = SEREN_HEADER;
  for (int i = 0; i < 60; ++i)
    text += seren_row("j" + std::to_string(i), "-" + std::to_string(i + 1), "SFT", "FAILED", "2023-03-01 00:00:00Z",
                      "1");
  const auto ds = errors_of(text);
  REQUIRE(ds.size() == 51);
  CHECK(ds[0].where == "t.csv:2");
  CHECK(ds[0].value == "-1");
  CHECK(ds[49].where == "t.csv:51");
  CHECK(ds[50].where == "t.csv");
  CHECK_THAT(ds[50].message, Catch::Contains("10 more problems not shown") && Catch::Contains("60 bad rows"));
}

TEST_CASE("Missing required columns are reported with the columns found", "[trace][errors]")
{
  const auto ds = errors_of("job_id,user,type,state,submit_time,start_time\n");
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].where == "t.csv:1");
  CHECK(ds[0].key == "gpu_num");
  CHECK_THAT(ds[0].message, Catch::Contains("missing required column") &&
                                Catch::Contains("found columns: job_id, user, type, state, submit_time, start_time"));
  CHECK(ds[1].key == "duration");
  CHECK_THAT(ds[1].message, Catch::Contains("both start_time and end_time"));

  // A one-line file of something else is all header: it is quoted once, cut short.
  const auto other = errors_of(std::string(5000, 'x') + "\n");
  REQUIRE(other.size() == 6);
  CHECK_THAT(other[0].message, Catch::Contains("... (1 columns)"));
  CHECK(other[0].message.size() < 300);
  for (std::size_t i = 1; i < other.size(); ++i)
    CHECK_THAT(other[i].message, Catch::Contains("(found columns: as above)"));

  // The check applies even under the skip policy.
  std::istringstream in("job_id,gpu_num,type,state,duration\nx,1,SFT,FAILED,1\n");
  CHECK_THROWS_AS(read_acme_trace(in, "t.csv", BadRowPolicy::Skip), InputError);
}

TEST_CASE("Empty, blank and header-only inputs", "[trace][errors]")
{
  for (const char* text : {"", "\n\n", "  \r\n"}) {
    const auto ds = errors_of(text);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where == "t.csv");
    CHECK(ds[0].message == "empty file, expected a header line");
  }
  const Workload w = read_text(SEREN_HEADER);
  CHECK(w.jobs.empty());
  CHECK(w.source == "t.csv");
  CHECK(read_text(SEREN_HEADER + "\n\n").jobs.empty());
}

TEST_CASE("CRLF line endings, a BOM, quoting and unknown columns", "[trace]")
{
  const std::string text = "\xEF\xBB\xBFjob_id,extra,gpu_num,type,state,submit_time,duration\r\n"
                           "a,\"x \"\"quoted\"\" \",4,Pretrain,COMPLETED,2023-03-01 00:00:00+08:00,60\r\n"
                           "\r\n"
                           "\"b\",,\"2\",\"SFT\",TIMEOUT,\"2023-03-01 00:01:00+08:00\",\"30\"\r\n";
  const Workload w = read_text(text);
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "a");
  CHECK(w.jobs[0].duration_s == 60.0);
  CHECK(w.jobs[1].name == "b");
  CHECK(w.jobs[1].gpus == 2);
  CHECK(w.jobs[1].type == JobType::SFT);
  CHECK(w.jobs[1].final_state == JobState::Timeout);
  CHECK(w.jobs[1].submit_s == 60.0);
  CHECK(w.jobs[1].duration_s == 30.0);

  // Line numbers count the blank CRLF line.
  const auto ds =
      errors_of("job_id,gpu_num,type,state,submit_time,duration\r\n\r\nx,1,SFT,OOPS,2023-03-01 00:00:00Z,1\r\n");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].where == "t.csv:3");
  CHECK(ds[0].value == "OOPS");
}

TEST_CASE("A missing file is an InputError naming the path", "[trace][errors]")
{
  const std::string path = TRACE_DIR + "does_not_exist.csv";
  try {
    read_acme_trace_file(path, BadRowPolicy::Error);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].where == path);
    CHECK(e.diagnostics()[0].message == "cannot open file");
  }
  CHECK_THROWS_AS(read_acme_trace_file(TRACE_DIR, BadRowPolicy::Error), InputError);
}

// Hidden (run with `models_traces "[perf]"`): a million Seren-shaped rows must take seconds.
TEST_CASE("Reading a million rows", "[.][perf]")
{
  std::string text = SEREN_HEADER;
  text.reserve(150'000'000);
  for (int i = 0; i < 1'000'000; ++i) {
    const int s = i % 60, m = (i / 60) % 60, h = (i / 3600) % 24, d = 1 + i / 86400;
    char submit[48];
    std::snprintf(submit, sizeof submit, "2023-03-%02d %02d:%02d:%02d+08:00", d, h, m, s);
    text += seren_row("dlc" + std::to_string(1'000'000'000'000 + i), std::to_string(i % 9), "Pretrain", "COMPLETED",
                      submit, std::to_string(i % 7200));
  }
  std::istringstream in(std::move(text));
  const auto start = std::chrono::steady_clock::now();
  const Workload w = read_acme_trace(in, "big.csv", BadRowPolicy::Error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("1e6 rows read in " << seconds << " s");
  CHECK(w.jobs.size() == 1'000'000);
  CHECK(seconds < 5.0);
}

TEST_CASE("A known column named twice in the header is an error")
{
  std::istringstream in("job_id,gpu_num,type,state,submit_time,duration,gpu_num\n"
                        "a,1,Eval,COMPLETED,2023-03-01 00:00:00+08:00,10,8\n");
  try {
    read_acme_trace(in, "dup.csv", BadRowPolicy::Skip);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].where == "dup.csv:1");
    CHECK(e.diagnostics()[0].key == "gpu_num");
    CHECK_THAT(e.diagnostics()[0].message, Catch::Contains("columns 2 and 7"));
  }
}

TEST_CASE("Durations beyond 1e9 s and COMPLETED jobs that never started are bad rows")
{
  std::istringstream in("job_id,gpu_num,type,state,submit_time,start_time,end_time,duration\n"
                        "huge,8,Pretrain,COMPLETED,2023-03-01 00:00:00+08:00,,,1e308\n"
                        "left,1,Eval,FAILED,2023-03-01 00:00:00+08:00,,2023-03-01 00:01:00+08:00,\n"
                        "ran,1,Eval,COMPLETED,2023-03-01 00:00:00+08:00,,,\n"
                        "pending,1,Eval,CANCELLED,2023-03-01 00:00:00+08:00,,,\n");
  try {
    read_acme_trace(in, "t.csv", BadRowPolicy::Error);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    REQUIRE(e.diagnostics().size() == 2);
    CHECK(e.diagnostics()[0].where == "t.csv:2");
    CHECK(e.diagnostics()[0].key == "duration");
    CHECK(e.diagnostics()[1].where == "t.csv:4");
    CHECK(e.diagnostics()[1].key == "start_time");
    CHECK_THAT(e.diagnostics()[1].message, Catch::Contains("COMPLETED"));
  }
}
