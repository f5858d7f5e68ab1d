#include "models/workload/PhillyReader.hpp"

#include "models/workload/AcmeTraceReader.hpp"
#include "models/workload/TraceFormat.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>

namespace acmesim {

namespace {

using json = nlohmann::json;
using trace_io::BadRowLog;

constexpr std::array<std::string_view, 4> REQUIRED_FIELDS{"jobid", "status", "submitted_time", "attempts"};
constexpr std::string_view TIMESTAMP_EXPECTED = "expected a timestamp like 2017-10-07 01:11:39";
// A long value pasted into a diagnostic would bury the message.
constexpr std::size_t MAX_VALUE_CHARS = 80;

std::optional<JobState> parse_status(std::string_view s)
{
  using enum JobState;
  for (const auto& [name, state] :
       {std::pair{"Pass", Completed}, std::pair{"Killed", Cancelled}, std::pair{"Failed", Failed}})
    if (s == name)
      return state;
  return std::nullopt;
}

// A JSON value as the reader keeps it: its kind and, for scalars, its text (strings unquoted).
// Containers are not kept: the reader streams, and only the fields it maps are recorded.
struct Value {
  enum Kind : std::uint8_t { Absent, Null, Bool, Integer, Float, String, Object, Array } kind = Absent;
  std::string text;

  bool present() const { return kind != Absent; }
  bool is_string() const { return kind == String; }
  // As shown in a diagnostic.
  std::string shown() const
  {
    if (kind == Object || kind == Array || kind == Null)
      return kind == Object ? "{...}" : kind == Array ? "[...]" : "null";
    return text.size() > MAX_VALUE_CHARS ? text.substr(0, MAX_VALUE_CHARS - 3) + "..." : text;
  }
};

struct Attempt {
  Value self; // an Object, or the value found instead of one
  Value end_time;
  Value detail;
  int servers = 0;
  int gpus = 0;
  std::size_t server = 0;     // index of the server being read
  std::size_t bad_server = 0; // first server without a list of GPUs, if bad_server_value is present
  Value bad_server_value;

  void note_bad_server(Value value)
  {
    if (bad_server_value.present())
      return;
    bad_server = server;
    bad_server_value = std::move(value);
  }
};

// What the reader keeps of one job while streaming: the mapped fields and, of its attempts, the
// first one's start and the whole last one.
struct RawJob {
  Value self; // an Object, or the element found instead of one
  Value jobid, status, submitted_time, user, attempts;
  std::size_t attempt_count = 0;
  Value first_self;
  Value first_start;
  Attempt last;
};

// The trace writes a time it does not know as null; its analysis notebook also expects "None" or "".
bool is_missing_time(const Value& v)
{
  return !v.present() || v.kind == Value::Null || (v.is_string() && (v.text.empty() || v.text == "None"));
}

std::string attempt_key(std::size_t i, std::string_view field)
{
  return "attempts[" + std::to_string(i) + "]" + (field.empty() ? "" : ".") + std::string(field);
}

// Streams the job log through nlohmann's SAX interface: no document is built, each job is
// mapped as soon as its object closes, so time and memory stay proportional to one job.
class JobLogParser final : public json::json_sax_t {
public:
  JobLogParser(Workload& workload, BadRowLog& log, const std::string& source, const std::string& text)
      : workload_(workload), log_(log), source_(source), text_(text)
  {
  }

  // Required fields that no job has: the input is not a Philly job log, whatever the policy.
  void throw_if_schema_mismatch() const
  {
    if (jobs_seen_ == 0)
      return;
    DiagnosticList problems;
    for (std::size_t f = 0; f < REQUIRED_FIELDS.size(); ++f)
      if (!seen_[f])
        problems.add(source_, std::string(REQUIRED_FIELDS[f]), "",
                     "missing required field: no job has it (fields of the first job: " + first_keys_ + ")");
    problems.throw_if_any();
  }

  bool null() override { return record({Value::Null, "null"}); }
  bool boolean(bool v) override { return record({Value::Bool, v ? "true" : "false"}); }
  bool number_integer(number_integer_t v) override { return record({Value::Integer, std::to_string(v)}); }
  bool number_unsigned(number_unsigned_t v) override { return record({Value::Integer, std::to_string(v)}); }
  bool number_float(number_float_t, const string_t& raw) override { return record({Value::Float, raw}); }
  bool string(string_t& v) override { return record({Value::String, std::move(v)}); }
  bool binary(binary_t&) override { return record({Value::String, "<binary>"}); }
  bool start_object(std::size_t) override { return open(Value::Object); }
  bool start_array(std::size_t) override { return open(Value::Array); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& name) override
  {
    Frame& frame = stack_.back();
    if (frame.role == Role::Job && !keys_recorded_)
      first_keys_ += (first_keys_.empty() ? "" : ", ") + name;
    frame.key = Key::Other;
    for (const auto& [role, known, key] : KEYS)
      if (role == frame.role && known == name)
        frame.key = key;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const json::exception& e) override
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

private:
  enum class Role : std::uint8_t { Jobs, Job, Attempts, Attempt, Detail, Server, Gpus, Skip };
  enum class Key : std::uint8_t { Other, JobId, Status, Submitted, User, Attempts, StartTime, EndTime, Detail, Gpus };
  // The keys read, by the kind of object they are in.
  static constexpr std::array<std::tuple<Role, std::string_view, Key>, 9> KEYS{{
      {Role::Job, "jobid", Key::JobId},
      {Role::Job, "status", Key::Status},
      {Role::Job, "submitted_time", Key::Submitted},
      {Role::Job, "user", Key::User},
      {Role::Job, "attempts", Key::Attempts},
      {Role::Attempt, "start_time", Key::StartTime},
      {Role::Attempt, "end_time", Key::EndTime},
      {Role::Attempt, "detail", Key::Detail},
      {Role::Server, "gpus", Key::Gpus}}};
  struct Frame {
    Role role;
    Key key = Key::Other;    // objects: the key of the value being read
    std::size_t count = 0;   // arrays: elements begun so far
    bool has_gpus = false;   // servers: whether a "gpus" key was seen
  };

  bool open(Value::Kind kind)
  {
    stack_.push_back(Frame{place_container(kind)});
    return true;
  }

  bool close()
  {
    const Frame frame = stack_.back();
    stack_.pop_back();
    if (frame.role == Role::Job) {
      keys_recorded_ = true;
      finish_job();
    } else if (frame.role == Role::Server && !frame.has_gpus) {
      job_.last.note_bad_server(Value{Value::Object, ""});
    }
    return true;
  }

  // A container opens: records it like a scalar and says what its contents are.
  Role place_container(Value::Kind kind)
  {
    if (stack_.empty()) {
      if (kind != Value::Array)
        throw InputError(Diagnostic{source_, "", "", "expected a JSON array of jobs (Philly's cluster_job_log)"});
      return Role::Jobs;
    }
    const Role parent = stack_.back().role;
    const Key key = stack_.back().key;
    record(Value{kind, ""});
    if (parent == Role::Jobs && kind == Value::Object)
      return Role::Job;
    if (parent == Role::Job && key == Key::Attempts && kind == Value::Array)
      return Role::Attempts;
    if (parent == Role::Attempts && kind == Value::Object)
      return Role::Attempt;
    if (parent == Role::Attempt && key == Key::Detail && kind == Value::Array)
      return Role::Detail;
    if (parent == Role::Detail && kind == Value::Object)
      return Role::Server;
    if (parent == Role::Server && key == Key::Gpus && kind == Value::Array)
      return Role::Gpus;
    return Role::Skip;
  }

  // Records a value (a scalar, or a container as it opens) where the parser is.
  bool record(Value value)
  {
    if (stack_.empty())
      throw InputError(Diagnostic{source_, "", "", "expected a JSON array of jobs (Philly's cluster_job_log)"});
    Frame& frame = stack_.back();
    Attempt& attempt = job_.last;
    switch (frame.role) {
    case Role::Jobs:
      job_ = RawJob{};
      job_.self = std::move(value);
      index_ = frame.count++;
      ++jobs_seen_;
      if (job_.self.kind != Value::Object) // not a job: reported now, its contents (if any) skipped
        finish_job();
      break;
    case Role::Job:
      if (frame.key == Key::JobId)
        job_.jobid = std::move(value);
      else if (frame.key == Key::Status)
        job_.status = std::move(value);
      else if (frame.key == Key::Submitted)
        job_.submitted_time = std::move(value);
      else if (frame.key == Key::User)
        job_.user = std::move(value);
      else if (frame.key == Key::Attempts)
        job_.attempts = std::move(value);
      break;
    case Role::Attempts:
      job_.attempt_count = ++frame.count;
      attempt = Attempt{};
      attempt.self = value;
      if (frame.count == 1)
        job_.first_self = std::move(value);
      break;
    case Role::Attempt:
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
      if (value.kind != Value::Object)
        attempt.note_bad_server(std::move(value));
      break;
    case Role::Server:
      if (frame.key == Key::Gpus) {
        frame.has_gpus = true;
        if (value.kind != Value::Array)
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

  void bad(std::string_view key, const Value& value, std::string_view message)
  {
    log_.add(source_ + ":job " + std::to_string(index_), key, value.shown(), message);
  }

  // Maps the job just read, every problem of it reported.
  void finish_job()
  {
    const RawJob& raw = job_;
    Job job;
    if (raw.self.kind != Value::Object) {
      bad("", raw.self, "expected a JSON object (one job)");
      log_.end_row();
      return;
    }
    const std::array<const Value*, 4> required{&raw.jobid, &raw.status, &raw.submitted_time, &raw.attempts};
    for (std::size_t f = 0; f < required.size(); ++f) {
      seen_[f] = seen_[f] || required[f]->present();
      if (!required[f]->present())
        bad(REQUIRED_FIELDS[f], {}, "missing required field");
    }
    if (raw.jobid.present() && !(raw.jobid.is_string() && !raw.jobid.text.empty()) && raw.jobid.kind != Value::Integer)
      bad("jobid", raw.jobid, "expected a non-empty string");
    const auto state = raw.status.is_string() ? parse_status(raw.status.text) : std::nullopt;
    if (raw.status.present() && !state)
      bad("status", raw.status, "expected one of Pass, Killed, Failed");
    const auto submitted = raw.submitted_time.is_string() ? parse_timestamp(raw.submitted_time.text) : std::nullopt;
    if (raw.submitted_time.present() && !submitted)
      bad("submitted_time", raw.submitted_time, TIMESTAMP_EXPECTED);
    if (raw.user.present() && !raw.user.is_string() && raw.user.kind != Value::Null)
      bad("user", raw.user, "expected a string or null");
    if (raw.attempts.present())
      map_attempts(raw, job);
    if (!log_.end_row())
      return;
    job.type = JobType::Other;
    job.final_state = *state;
    job.submit_s = *submitted;
    job.name = raw.jobid.text;
    if (raw.user.is_string())
      job.user = raw.user.text;
    workload_.jobs.push_back(std::move(job));
  }

  std::optional<double> attempt_time(const Value& value, std::size_t i, std::string_view field,
                                     std::string_view missing)
  {
    if (is_missing_time(value)) {
      bad(attempt_key(i, field), value, missing);
      return std::nullopt;
    }
    const auto t = value.is_string() ? parse_timestamp(value.text) : std::nullopt;
    if (!t)
      bad(attempt_key(i, field), value, TIMESTAMP_EXPECTED);
    return t;
  }

  // Run time from the first start to the final end; size from the attempt the job finished with.
  void map_attempts(const RawJob& raw, Job& job)
  {
    if (raw.attempts.kind != Value::Array) {
      bad("attempts", raw.attempts, "expected a list of attempts");
      return;
    }
    if (raw.attempt_count == 0) // never scheduled: nothing ran, as for a job cancelled while pending
      return;
    const std::size_t last = raw.attempt_count - 1;
    for (const auto& [i, self] : {std::pair{std::size_t{0}, &raw.first_self}, std::pair{last, &raw.last.self}})
      if (self->kind != Value::Object) {
        bad(attempt_key(i, ""), *self, "expected an object with start_time, end_time and detail");
        return;
      }
    const auto start = attempt_time(raw.first_start, 0, "start_time",
                                    "missing: the trace does not record when the job first started");
    const auto end = attempt_time(raw.last.end_time, last, "end_time",
                                  "missing: the job was still running when the trace was taken");
    if (start && end && *end < *start)
      bad(attempt_key(last, "end_time"), raw.last.end_time,
          "expected an end time not before the first attempt's start_time " + raw.first_start.text);
    else if (start && end)
      job.duration_s = *end - *start;

    const Attempt& a = raw.last;
    if (a.detail.kind != Value::Array)
      bad(attempt_key(last, "detail"), a.detail, a.detail.present() ? "expected a list of servers" : "missing field");
    else if (a.bad_server_value.present())
      bad(attempt_key(last, "detail[" + std::to_string(a.bad_server) + "].gpus"), a.bad_server_value,
          "expected a list of GPU names");
    job.trace_nodes = a.servers;
    job.gpus = a.gpus;
  }

  Workload& workload_;
  BadRowLog& log_;
  const std::string& source_;
  const std::string& text_;
  std::vector<Frame> stack_;
  RawJob job_;
  std::size_t index_ = 0;
  std::size_t jobs_seen_ = 0;
  std::array<bool, REQUIRED_FIELDS.size()> seen_{};
  std::string first_keys_; // of the first job object, for messages
  bool keys_recorded_ = false;
};

void read_job_log(const trace_io::TraceInput& input, Workload& workload, BadRowLog& log)
{
  const std::string text = trace_io::read_all(input.in, input.size_hint);
  trace_io::throw_if_read_error(input.in, input.source);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(Diagnostic{input.source, "", "", "empty file, expected a JSON array of jobs"});

  JobLogParser parser(workload, log, input.source, text);
  json::sax_parse(text.data(), text.data() + text.size(), &parser);
  parser.throw_if_schema_mismatch();
}

} // namespace

Workload read_philly_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row)
{
  return trace_io::read_workload(in, source_name, on_bad_row, read_job_log);
}

Workload read_philly_trace_file(const std::string& path, BadRowPolicy on_bad_row)
{
  return trace_io::read_workload_file(path, on_bad_row, read_job_log);
}

} // namespace acmesim
