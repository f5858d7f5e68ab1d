#pragma once
// What the Philly reader keeps of one job of a cluster_job_log while it streams the file: the
// JSON values of the fields it maps, before they are checked and mapped onto a Job. Shared by
// the parser that fills them (PhillyJobLogParser) and the reader that maps them (PhillyReader).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace acmesim::philly {

// A long value pasted into a diagnostic would bury the message.
inline constexpr std::size_t MAX_SHOWN_VALUE_CHARS = 80;

// A JSON value as the reader keeps it: its kind and, for scalars, its text (strings unquoted).
// Containers are not kept: the reader streams, and only the fields it maps are recorded.
struct JsonValue {
  enum Kind : std::uint8_t { Absent, Null, Bool, Integer, Float, String, Object, Array } kind = Absent;
  std::string text;

  bool present() const { return kind != Absent; }
  bool is_string() const { return kind == String; }
  // As shown in a diagnostic.
  std::string shown() const
  {
    if (kind == Object || kind == Array || kind == Null)
      return kind == Object ? "{...}" : kind == Array ? "[...]" : "null";
    return text.size() > MAX_SHOWN_VALUE_CHARS ? text.substr(0, MAX_SHOWN_VALUE_CHARS - 3) + "..." : text;
  }
};

// The last attempt of a job as read: when it ended, and the size of its allocation.
struct RawAttempt {
  JsonValue self; // an Object, or the value found instead of one
  JsonValue end_time;
  JsonValue detail;
  int servers = 0;
  int gpus = 0;
  std::size_t server = 0;     // index of the server being read
  std::size_t bad_server = 0; // first server without a list of GPUs, if bad_server_value is present
  JsonValue bad_server_value;

  void note_bad_server(JsonValue value)
  {
    if (bad_server_value.present())
      return;
    bad_server = server;
    bad_server_value = std::move(value);
  }
};

// One element of the job log: the mapped fields and, of its attempts, the first one's start and
// the whole last one.
struct RawJob {
  std::size_t index = 0; // in the log's array, from 0 (as jq '.[index]' counts)
  JsonValue self;        // an Object, or the element found instead of one
  JsonValue jobid, status, submitted_time, user, attempts;
  std::size_t attempt_count = 0;
  JsonValue first_self;
  JsonValue first_start;
  RawAttempt last;
};

} // namespace acmesim::philly
