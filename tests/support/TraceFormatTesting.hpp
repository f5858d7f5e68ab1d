#pragma once
// What the tests of the SWF, Philly and Helios readers and of the format dispatch share: reading
// a text as a trace, the diagnostics a refused text gives, rows and jobs of each format written
// from their fields, and the hidden timing check of a million jobs.
#include "models/common/InputError.hpp"
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

namespace acmesim::testing {

inline const std::string TRACE_DIR = std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/";

using Reader = Workload (*)(std::istream&, const std::string&, BadRowPolicy);

inline Workload read_text(Reader reader, const std::string& text, BadRowPolicy policy = BadRowPolicy::Error)
{
  std::istringstream in(text);
  return reader(in, "t", policy);
}

// Diagnostics of the InputError that reading `text` throws; fails the test if nothing is thrown.
inline std::vector<Diagnostic> errors_of(Reader reader, const std::string& text,
                                         BadRowPolicy policy = BadRowPolicy::Error)
{
  try {
    read_text(reader, text, policy);
  } catch (const InputError& e) {
    return e.diagnostics();
  }
  FAIL("expected an InputError");
  return {};
}

inline void check_diagnostic(const Diagnostic& d, const std::string& where, const std::string& key,
                             const std::string& value, const std::string& in_message)
{
  INFO(d.to_string());
  CHECK(d.where == where);
  CHECK(d.key == key);
  CHECK(d.value == value);
  CHECK_THAT(d.message, Catch::Contains(in_message));
}

// One SWF line: the fields read by acmesim as given, the others -1.
inline std::string swf_line(const std::string& job, const std::string& submit, const std::string& run,
                            const std::string& allocated, const std::string& requested, const std::string& status,
                            const std::string& user = "1")
{
  return job + " " + submit + " -1 " + run + " " + allocated + " -1 -1 " + requested + " -1 -1 " + status + " " +
         user + " -1 -1 -1 -1 -1 -1\n";
}

inline std::string philly_job(const std::string& id, const std::string& status, const std::string& submitted,
                              const std::string& attempts, const std::string& user = "\"u\"")
{
  return R"({"jobid": ")" + id + R"(", "status": ")" + status + R"(", "submitted_time": ")" + submitted +
         R"(", "user": )" + user + R"(, "vc": "v", "attempts": )" + attempts + "}";
}

inline std::string philly_attempt(const std::string& start, const std::string& end, int gpus)
{
  std::string list;
  for (int g = 0; g < gpus; ++g)
    list += (g == 0 ? "\"gpu" : ", \"gpu") + std::to_string(g) + "\"";
  return R"({"start_time": )" + start + R"(, "end_time": )" + end + R"(, "detail": [{"ip": "m1", "gpus": [)" + list +
         "]}]}";
}

inline const std::string HELIOS_HEADER =
    "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n";

inline std::string helios_row(const std::string& id, const std::string& gpus, const std::string& state,
                              const std::string& submit, const std::string& duration)
{
  return id + ",u1,vc1," + gpus + ",4,1," + state + "," + submit + ",2020-06-09 18:00:00,2020-06-09 19:00:00," +
         duration + ",0\n";
}

// --- hidden performance tests ------------------------------------------------------------------
// Run with `models_traces "[perf]"`: a million jobs of each format must take seconds.

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

// "<prefix>-DD hh:mm:ss" for the i-th second of a month.
inline std::string timestamp(const char* prefix, int i)
{
  char text[32];
  std::snprintf(text, sizeof text, "%s-%02d %02d:%02d:%02d", prefix, 1 + i / 86400, (i / 3600) % 24, (i / 60) % 60,
                i % 60);
  return text;
}

} // namespace acmesim::testing
