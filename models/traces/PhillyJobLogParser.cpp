#include "models/traces/PhillyJobLogParser.hpp"

#include "models/common/InputError.hpp"
#include "models/traces/TraceIo.hpp"

namespace acmesim::philly {

JobLogParser::JobLogParser(const std::string& source, const std::string& text, JobHandler on_job)
    : source_(source), text_(text), on_job_(std::move(on_job))
{
}

bool JobLogParser::null() { return record({JsonValue::Null, "null"}); }
bool JobLogParser::boolean(bool v) { return record({JsonValue::Bool, v ? "true" : "false"}); }
bool JobLogParser::number_integer(number_integer_t v) { return record({JsonValue::Integer, std::to_string(v)}); }
bool JobLogParser::number_unsigned(number_unsigned_t v) { return record({JsonValue::Integer, std::to_string(v)}); }
bool JobLogParser::number_float(number_float_t, const string_t& raw) { return record({JsonValue::Float, raw}); }
bool JobLogParser::string(string_t& v) { return record({JsonValue::String, std::move(v)}); }
bool JobLogParser::binary(binary_t&) { return record({JsonValue::String, "<binary>"}); }
bool JobLogParser::start_object(std::size_t) { return open(JsonValue::Object); }
bool JobLogParser::start_array(std::size_t) { return open(JsonValue::Array); }
bool JobLogParser::end_object() { return close(); }
bool JobLogParser::end_array() { return close(); }

bool JobLogParser::key(string_t& name)
{
  Frame& frame = stack_.back();
  if (frame.role == Role::Job && !keys_recorded_)
    first_keys_.push_back(name);
  frame.key = Key::Other;
  for (const auto& [role, known, key] : KEYS)
    if (role == frame.role && known == name)
      frame.key = key;
  return true;
}

bool JobLogParser::parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e)
{
  // nlohmann's message starts "[json.exception...] parse error at line 3, column 5: "; `where` says that.
  const std::string what = e.what();
  const std::size_t at = what.find("parse error");
  const std::size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  // nlohmann's position is 1-based and points at the last byte it read.
  const std::string where = source_ + ":" + trace_io::line_and_column(text_, position == 0 ? 0 : position - 1);
  throw InputError(Diagnostic{where, "", "",
                              "JSON syntax error: " + (colon == std::string::npos ? what : what.substr(colon + 2))});
}

bool JobLogParser::open(JsonValue::Kind kind)
{
  stack_.push_back(Frame{place_container(kind)});
  return true;
}

bool JobLogParser::close()
{
  const Frame frame = stack_.back();
  stack_.pop_back();
  if (frame.role == Role::Job) {
    keys_recorded_ = true;
    on_job_(job_);
  } else if (frame.role == Role::Server && !frame.has_gpus) {
    job_.last.note_bad_server(JsonValue{JsonValue::Object, ""});
  }
  return true;
}

// A container opens: records it like a scalar and says what its contents are.
JobLogParser::Role JobLogParser::place_container(JsonValue::Kind kind)
{
  if (stack_.empty()) {
    if (kind != JsonValue::Array)
      throw_not_a_job_log();
    return Role::Jobs;
  }
  const Role parent = stack_.back().role;
  const Key key = stack_.back().key;
  record(JsonValue{kind, ""});
  if (parent == Role::Jobs && kind == JsonValue::Object)
    return Role::Job;
  if (parent == Role::Job && key == Key::Attempts && kind == JsonValue::Array)
    return Role::Attempts;
  if (parent == Role::Attempts && kind == JsonValue::Object)
    return Role::Attempt;
  if (parent == Role::Attempt && key == Key::Detail && kind == JsonValue::Array)
    return Role::Detail;
  if (parent == Role::Detail && kind == JsonValue::Object)
    return Role::Server;
  if (parent == Role::Server && key == Key::Gpus && kind == JsonValue::Array)
    return Role::Gpus;
  return Role::Skip;
}

// Records a value (a scalar, or a container as it opens) where the parser is.
bool JobLogParser::record(JsonValue value)
{
  if (stack_.empty())
    throw_not_a_job_log();
  Frame& frame = stack_.back();
  RawAttempt& attempt = job_.last;
  switch (frame.role) {
  case Role::Jobs:
    job_ = RawJob{};
    job_.index = frame.count++;
    job_.self = std::move(value);
    if (job_.self.kind != JsonValue::Object) // not a job: handed on now, its contents (if any) skipped
      on_job_(job_);
    break;
  case Role::Job:
    for (const auto& [key, field] : JOB_FIELDS)
      if (key == frame.key)
        job_.*field = std::move(value);
    break;
  case Role::Attempts:
    job_.attempt_count = ++frame.count;
    attempt = RawAttempt{};
    attempt.self = value;
    if (frame.count == 1)
      job_.first_self = std::move(value);
    break;
  case Role::Attempt:
    // Of the attempts, only the first one's start and the last one's end and servers are mapped.
    if (frame.key == Key::StartTime && job_.attempt_count == 1)
      job_.first_start = std::move(value);
    else if (frame.key == Key::EndTime)
      attempt.end_time = std::move(value);
    else if (frame.key == Key::Detail)
      attempt.detail = std::move(value);
    break;
  case Role::Detail:
    ++attempt.servers;
    attempt.server = frame.count++;
    if (value.kind != JsonValue::Object)
      attempt.note_bad_server(std::move(value));
    break;
  case Role::Server:
    if (frame.key == Key::Gpus) {
      frame.has_gpus = true;
      if (value.kind != JsonValue::Array)
        attempt.note_bad_server(std::move(value));
    }
    break;
  case Role::Gpus:
    ++attempt.gpus;
    break;
  case Role::Skip:
    break;
  }
  return true;
}

void JobLogParser::throw_not_a_job_log() const
{
  throw InputError(Diagnostic{source_, "", "", "expected a JSON array of jobs (Philly's cluster_job_log)"});
}

} // namespace acmesim::philly
