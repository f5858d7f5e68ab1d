#include "models/traces/PhillyJobMapper.hpp"

#include "models/common/InputError.hpp"
#include "models/traces/AcmeTraceReader.hpp"
#include "models/traces/PhillyJobLogParser.hpp"

#include <nlohmann/json.hpp>

namespace acmesim::philly {

namespace {

constexpr std::string_view TIMESTAMP_EXPECTED = "expected a timestamp like 2017-10-07 01:11:39";

std::optional<JobState> parse_status(std::string_view s)
{
  using enum JobState;
  for (const auto& [name, state] :
       {std::pair{"Pass", Completed}, std::pair{"Killed", Cancelled}, std::pair{"Failed", Failed}})
    if (s == name)
      return state;
  return std::nullopt;
}

// The trace writes a time it does not know as null; its analysis notebook also expects "None" or "".
bool is_missing_time(const JsonValue& v)
{
  return !v.present() || v.kind == JsonValue::Null || (v.is_string() && (v.text.empty() || v.text == "None"));
}

std::string attempt_key(std::size_t i, std::string_view field)
{
  return "attempts[" + std::to_string(i) + "]" + (field.empty() ? "" : ".") + std::string(field);
}

} // namespace

JobMapper::JobMapper(Workload& workload, trace_io::BadRowLog& log, const std::string& source)
    : workload_(workload), log_(log), source_(source)
{
}

void JobMapper::map(const RawJob& raw)
{
  ++jobs_seen_;
  if (raw.self.kind != JsonValue::Object) {
    bad(raw, "", raw.self, "expected a JSON object (one job)");
    log_.end_row();
    return;
  }
  note_required_fields(raw);
  if (raw.jobid.present() && !(raw.jobid.is_string() && !raw.jobid.text.empty()) &&
      raw.jobid.kind != JsonValue::Integer)
    bad(raw, "jobid", raw.jobid, "expected a non-empty string");
  const auto state = raw.status.is_string() ? parse_status(raw.status.text) : std::nullopt;
  if (raw.status.present() && !state)
    bad(raw, "status", raw.status, "expected one of Pass, Killed, Failed");
  const auto submitted = raw.submitted_time.is_string() ? parse_timestamp(raw.submitted_time.text) : std::nullopt;
  if (raw.submitted_time.present() && !submitted)
    bad(raw, "submitted_time", raw.submitted_time, TIMESTAMP_EXPECTED);
  if (raw.user.present() && !raw.user.is_string() && raw.user.kind != JsonValue::Null)
    bad(raw, "user", raw.user, "expected a string or null");
  Job job;
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

void JobMapper::throw_if_schema_mismatch(const std::string& first_job_keys) const
{
  if (jobs_seen_ == 0)
    return;
  DiagnosticList problems;
  for (std::size_t f = 0; f < REQUIRED_FIELDS.size(); ++f)
    if (!seen_[f])
      problems.add(source_, std::string(REQUIRED_FIELDS[f]), "",
                   "missing required field: no job has it (fields of the first job: " + first_job_keys + ")");
  problems.throw_if_any();
}

void JobMapper::bad(const RawJob& raw, std::string_view key, const JsonValue& value, std::string_view message)
{
  log_.add(source_ + ":job " + std::to_string(raw.index), key, value.shown(), message);
}

// A required field missing from this job is reported; one that some job has shows that the
// input is a job log.
void JobMapper::note_required_fields(const RawJob& raw)
{
  const std::array<const JsonValue*, 4> required{&raw.jobid, &raw.status, &raw.submitted_time, &raw.attempts};
  for (std::size_t f = 0; f < required.size(); ++f) {
    seen_[f] = seen_[f] || required[f]->present();
    if (!required[f]->present())
      bad(raw, REQUIRED_FIELDS[f], {}, "missing required field");
  }
}

std::optional<double> JobMapper::attempt_time(const RawJob& raw, const JsonValue& value, std::size_t i,
                                              std::string_view field, std::string_view missing)
{
  if (is_missing_time(value)) {
    bad(raw, attempt_key(i, field), value, missing);
    return std::nullopt;
  }
  const auto t = value.is_string() ? parse_timestamp(value.text) : std::nullopt;
  if (!t)
    bad(raw, attempt_key(i, field), value, TIMESTAMP_EXPECTED);
  return t;
}

// Run time from the first start to the final end; size from the attempt the job finished with.
void JobMapper::map_attempts(const RawJob& raw, Job& job)
{
  if (raw.attempts.kind != JsonValue::Array) {
    bad(raw, "attempts", raw.attempts, "expected a list of attempts");
    return;
  }
  if (raw.attempt_count == 0) // never scheduled: nothing ran, as for a job cancelled while pending
    return;
  const std::size_t last = raw.attempt_count - 1;
  for (const auto& [i, self] : {std::pair{std::size_t{0}, &raw.first_self}, std::pair{last, &raw.last.self}})
    if (self->kind != JsonValue::Object) {
      bad(raw, attempt_key(i, ""), *self, "expected an object with start_time, end_time and detail");
      return;
    }
  const auto start = attempt_time(raw, raw.first_start, 0, "start_time",
                                  "missing: the trace does not record when the job first started");
  const auto end = attempt_time(raw, raw.last.end_time, last, "end_time",
                                "missing: the job was still running when the trace was taken");
  if (start && end && *end < *start)
    bad(raw, attempt_key(last, "end_time"), raw.last.end_time,
        "expected an end time not before the first attempt's start_time " + raw.first_start.text);
  else if (start && end)
    job.duration_s = *end - *start;

  const auto& a = raw.last;
  if (a.detail.kind != JsonValue::Array)
    bad(raw, attempt_key(last, "detail"), a.detail,
        a.detail.present() ? "expected a list of servers" : "missing field");
  else if (a.bad_server_value.present())
    bad(raw, attempt_key(last, "detail[" + std::to_string(a.bad_server) + "].gpus"), a.bad_server_value,
        "expected a list of GPU names");
  job.trace_nodes = a.servers;
  job.gpus = a.gpus;
}

// The whole text is read first: a syntax error is reported with its line and column in it.
void read_job_log(const trace_io::TraceInput& input, Workload& workload, trace_io::BadRowLog& log)
{
  const std::string text = trace_io::read_all(input.in, input.size_hint);
  trace_io::throw_if_read_error(input.in, input.source);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(Diagnostic{input.source, "", "", "empty file, expected a JSON array of jobs"});

  JobMapper mapper(workload, log, input.source);
  JobLogParser parser(input.source, text, [&mapper](const RawJob& raw) { mapper.map(raw); });
  nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &parser);
  mapper.throw_if_schema_mismatch(parser.first_job_keys());
}

} // namespace acmesim::philly
