#include "models/traces/SwfReader.hpp"

#include "models/traces/TraceIo.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace acmesim {

namespace {

using trace_io::BadRowLog;

constexpr std::size_t FIELD_COUNT = 18;
// Names as in the SWF definition, for messages.
constexpr std::array<std::string_view, FIELD_COUNT> FIELD_NAMES{
    "job number", "submit time", "wait time", "run time", "allocated processors", "average CPU time",
    "used memory", "requested processors", "requested time", "requested memory", "status", "user id",
    "group id", "executable", "queue", "partition", "preceding job", "think time"};

// 0-based indexes of the fields read.
enum Field : std::size_t { JobNumber = 0, SubmitTime = 1, WaitTime = 2, RunTime = 3, AllocatedProcs = 4,
                           RequestedProcs = 7, RequestedTime = 8, Status = 10, UserId = 11, GroupId = 12,
                           QueueNumber = 14, PartitionNumber = 15 };

constexpr std::string_view STATUS_EXPECTED =
    "expected a status of 1 (completed), 0 (failed), 5 (cancelled), 2, 3 or 4 (partial executions) or -1 (unknown)";

std::string field_key(std::size_t field)
{
  return "field " + std::to_string(field + 1) + " (" + std::string(FIELD_NAMES[field]) + ")";
}

// Splits at runs of spaces and tabs; returns the number of fields found, of which at most
// FIELD_COUNT are stored.
std::size_t split_fields(std::string_view line, std::array<std::string_view, FIELD_COUNT>& fields)
{
  std::size_t count = 0;
  for (std::size_t pos = line.find_first_not_of(" \t"); pos != std::string_view::npos;
       pos = line.find_first_not_of(" \t", pos)) {
    const std::size_t end = std::min(line.find_first_of(" \t", pos), line.size());
    if (count < FIELD_COUNT)
      fields[count] = line.substr(pos, end - pos);
    ++count;
    pos = end;
  }
  return count;
}

// The whole text as a number; SWF allows floating-point values in time fields.
std::optional<double> parse_number(std::string_view s)
{
  double value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc{} || ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

bool is_unknown(std::string_view field) { return parse_number(field) == -1.0; }

class RowParser {
public:
  RowParser(BadRowLog& log, const std::string& source, UnknownPolicy on_unknown, UnknownDrops& drops)
      : log_(log), source_(source), on_unknown_(on_unknown), drops_(drops)
  {
  }

  enum class Outcome { Job, Bad, PartialRecord, DroppedUnknown };

  Outcome parse(std::string_view line, std::size_t line_no, Job& job)
  {
    line_no_ = line_no;
    const std::size_t count = split_fields(line, fields_);
    if (count != FIELD_COUNT) {
      std::string message = "expected " + std::to_string(FIELD_COUNT) + " whitespace-separated fields, found " +
                            std::to_string(count);
      if (count < FIELD_COUNT)
        message +=
            ": missing " + field_key(count) + (count + 1 < FIELD_COUNT ? " to " + field_key(FIELD_COUNT - 1) : "");
      bad("", "", message);
      log_.end_row();
      return Outcome::Bad;
    }
    // Partial-execution records repeat a job whose whole-job line is read on its own.
    const auto status = parse_number(fields_[Status]);
    if (status && (*status == 2 || *status == 3 || *status == 4))
      return Outcome::PartialRecord;
    if (on_unknown_ == UnknownPolicy::Drop && drop_if_unknown())
      return Outcome::DroppedUnknown;
    if (!status)
      bad(Status, STATUS_EXPECTED);
    else if (*status == 1 || *status == -1)
      job.final_state = JobState::Completed;
    else if (*status == 0)
      job.final_state = JobState::Failed;
    else if (*status == 5)
      job.final_state = JobState::Cancelled;
    else
      bad(Status, STATUS_EXPECTED);

    job.submit_s = seconds(SubmitTime, "a job needs its submit time");
    job.duration_s = seconds(RunTime, "the run time is needed to replay the job");
    job.recorded_wait_s = recorded_seconds(WaitTime);
    job.requested_s = recorded_seconds(RequestedTime);
    job.gpus = processors(job);
    if (!log_.end_row())
      return Outcome::Bad;
    job.type = JobType::Other;
    job.name.assign(fields_[JobNumber]); // strings last: bad rows cost no allocation
    if (fields_[UserId] != "-1")
      job.user = std::string(fields_[UserId]);
    RecordedLabels labels{label(GroupId), label(QueueNumber), label(PartitionNumber)};
    if (!labels.empty())
      job.labels = intern_labels(std::move(labels));
    return Outcome::Job;
  }

private:
  // A job the replay cannot do without a field of which is -1: counted, and its other fields
  // are not checked.
  bool drop_if_unknown()
  {
    const bool submit = is_unknown(fields_[SubmitTime]);
    const bool run = is_unknown(fields_[RunTime]);
    const bool size = is_unknown(fields_[AllocatedProcs]) && is_unknown(fields_[RequestedProcs]);
    if (!submit && !run && !size)
      return false;
    ++drops_.jobs;
    drops_.submit_time += submit ? 1 : 0;
    drops_.run_time += run ? 1 : 0;
    drops_.size += size ? 1 : 0;
    return true;
  }

  void bad(std::string_view key, std::string_view value, std::string_view message)
  {
    log_.add(source_ + ":" + std::to_string(line_no_), key, value, message);
  }
  void bad(Field f, std::string_view message) { bad(field_key(f), fields_[f], message); }

  // A time field: finite and non-negative; -1 is "unknown", which the job cannot do without.
  double seconds(Field f, std::string_view why_needed)
  {
    const auto value = parse_number(fields_[f]);
    if (value && *value == -1)
      bad(f, "unknown (-1): " + std::string(why_needed));
    else if (!value || *value < 0 || *value > MAX_TRACE_SECONDS)
      bad(f, "expected a non-negative number of seconds, at most 1e9");
    return value.value_or(0.0);
  }

  // A time the log recorded that the replay does without (the wait): -1 when unknown, as the job's
  // own field holds "none".
  double recorded_seconds(Field f)
  {
    const auto value = parse_number(fields_[f]);
    if (value && *value == -1)
      return -1;
    if (!value || *value < 0 || *value > MAX_TRACE_SECONDS)
      bad(f, "expected a non-negative number of seconds, at most 1e9, or -1 (unknown)");
    return value.value_or(-1.0);
  }

  // A number the log files the job under (group, queue, partition), as written; "" when unknown.
  std::string label(Field f) const { return fields_[f] == "-1" ? std::string() : std::string(fields_[f]); }

  // A processor count: a non-negative integer, or -1 for unknown (std::nullopt).
  std::optional<int> count(Field f, bool& ok)
  {
    const auto value = parse_number(fields_[f]);
    ok = value && (*value == -1 || (*value >= 0 && *value <= std::numeric_limits<int>::max() &&
                                    *value == std::floor(*value)));
    if (!ok) {
      bad(f, "expected a non-negative integer number of processors, or -1 (unknown)");
      return std::nullopt;
    }
    return *value == -1 ? std::nullopt : std::optional<int>(static_cast<int>(*value));
  }

  // Allocated processors, or the requested ones when the allocation is unknown (a job cancelled
  // before it started has no allocation, but its request says how large it is).
  int processors(Job& job)
  {
    bool ok = false;
    const auto requested = count(RequestedProcs, ok);
    if (!ok)
      return 0;
    job.requested_procs = requested.value_or(-1);
    const auto allocated = count(AllocatedProcs, ok);
    if (allocated || !ok)
      return allocated.value_or(0);
    if (requested)
      return *requested;
    bad(AllocatedProcs, "unknown (-1), and so is " + field_key(RequestedProcs) +
                            ": the job's size (processors, read as GPUs) is needed");
    return 0;
  }

  BadRowLog& log_;
  const std::string& source_;
  UnknownPolicy on_unknown_;
  UnknownDrops& drops_;
  std::array<std::string_view, FIELD_COUNT> fields_{};
  std::size_t line_no_ = 0;
};

bool is_comment(std::string_view line)
{
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line[first] == ';';
}

void read_swf_jobs(const trace_io::TraceInput& input, Workload& workload, BadRowLog& log, UnknownPolicy on_unknown)
{
  RowParser parser(log, input.source, on_unknown, workload.dropped_unknown);
  trace_io::LineReader lines(input.in);
  std::string_view line;
  std::size_t line_no = 0;
  bool any_line = false;
  while (lines.next(line, line_no)) {
    if (trace_io::is_blank(line))
      continue;
    any_line = true;
    if (is_comment(line))
      continue;
    // Lines of one log have similar lengths, so the first one predicts the job count.
    trace_io::reserve_for_lines(workload.jobs, input.size_hint, line.size(), 36);
    Job job;
    if (parser.parse(line, line_no, job) == RowParser::Outcome::Job)
      workload.jobs.push_back(std::move(job));
  }
  trace_io::throw_if_read_error(input.in, input.source);
  if (!any_line)
    throw InputError(Diagnostic{input.source, "", "", "empty file, expected SWF job lines"});
}

} // namespace

namespace {

trace_io::JobsReader swf_reader(UnknownPolicy on_unknown)
{
  return [on_unknown](const trace_io::TraceInput& input, Workload& workload, BadRowLog& log) {
    read_swf_jobs(input, workload, log, on_unknown);
  };
}

} // namespace

Workload read_swf_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row,
                        UnknownPolicy on_unknown)
{
  return trace_io::read_workload(in, source_name, on_bad_row, swf_reader(on_unknown));
}

Workload read_swf_trace_file(const std::string& path, BadRowPolicy on_bad_row, UnknownPolicy on_unknown)
{
  return trace_io::read_workload_file(path, on_bad_row, swf_reader(on_unknown));
}

} // namespace acmesim
