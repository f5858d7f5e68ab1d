#include "models/traces/AcmeTraceReader.hpp"

#include "models/traces/JobsCsvColumns.hpp"
#include "models/traces/TraceIo.hpp"

#include "models/common/InputError.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <vector>

namespace acmesim {

namespace {

constexpr std::string_view TIMESTAMP_EXPECTED = "expected a timestamp like 2023-03-01 00:18:22+08:00";
constexpr std::string_view SECONDS_EXPECTED = "expected a non-negative number of seconds, at most 1e9";

using trace_io::split_csv_line;

// Non-negative integer. "8.0" is accepted because pandas writes integer columns holding a
// missing value as floats.
std::optional<int> parse_count(std::string_view s)
{
  int value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc{} || ptr == s.data() || value < 0)
    return std::nullopt;
  if (ptr != end && (*ptr != '.' || ptr + 1 == end || !std::all_of(ptr + 1, end, [](char c) { return c == '0'; })))
    return std::nullopt;
  return value;
}

std::optional<double> parse_seconds(std::string_view s)
{
  double value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc{} || ptr != end || !std::isfinite(value) || value < 0 || value > MAX_TRACE_SECONDS)
    return std::nullopt;
  return value;
}

enum Col : std::size_t { JobIdCol, UserCol, NodeNumCol, GpuNumCol, CpuNumCol, TypeCol, StateCol,
                         SubmitTimeCol, StartTimeCol, EndTimeCol, DurationCol, QueueCol, PodCol, COLUMN_COUNT };
using ColumnNames = std::array<std::string_view, COLUMN_COUNT>;
// The Acme release's names; Helios' are the same. An empty name: the schema has no such column.
constexpr ColumnNames ACME_COLUMNS{"job_id", "user", "node_num", "gpu_num", "cpu_num", "type", "state",
                                   "submit_time", "start_time", "end_time", "duration", "queue", ""};
// A run's jobs.csv (docs/outputs.md): times in seconds, the pod it ran on.
constexpr ColumnNames RUN_COLUMNS = [] {
  using enum JobsCsvColumn;
  return ColumnNames{to_string(JobName), to_string(User),    to_string(Nodes),  to_string(Gpus), to_string(Cpus),
                     to_string(Type),  to_string(State),   to_string(SubmitS), to_string(StartS), to_string(EndS),
                     "",               to_string(WaitS),   to_string(Pod)};
}();

const ColumnNames& column_names(CsvSchema schema) { return schema == CsvSchema::Run ? RUN_COLUMNS : ACME_COLUMNS; }

constexpr std::size_t ABSENT = std::numeric_limits<std::size_t>::max();

struct Columns {
  std::array<std::size_t, COLUMN_COUNT> index{};
  std::size_t field_count = 0;
  const ColumnNames* names = &ACME_COLUMNS;
  CsvSchema schema = CsvSchema::Acme;
};

std::string line_where(const std::string& source, std::size_t line_no)
{
  return source + ":" + std::to_string(line_no);
}

Columns find_columns(const std::vector<std::string_view>& header, const std::string& source, std::size_t line_no,
                     CsvSchema schema)
{
  Columns cols;
  cols.index.fill(ABSENT);
  cols.field_count = header.size();
  cols.names = &column_names(schema);
  cols.schema = schema;
  const ColumnNames& names = *cols.names;
  std::string found;
  DiagnosticList problems;
  for (std::size_t i = 0; i < header.size(); ++i) {
    found += (i == 0 ? "" : ", ") + std::string(header[i]);
    for (std::size_t c = 0; c < COLUMN_COUNT; ++c) {
      if (names[c].empty() || header[i] != names[c])
        continue;
      if (cols.index[c] != ABSENT) // which of the two would be meant cannot be known
        problems.add(line_where(source, line_no), std::string(names[c]), "",
                     "column appears twice in the header (columns " + std::to_string(cols.index[c] + 1) + " and " +
                         std::to_string(i + 1) + ")");
      else
        cols.index[c] = i;
    }
  }
  auto has = [&](Col c) { return cols.index[c] != ABSENT; };
  // The header found is quoted once, and cut short: a one-line file of anything else is its header.
  constexpr std::size_t MAX_QUOTED = 200;
  if (found.size() > MAX_QUOTED)
    found = found.substr(0, MAX_QUOTED) + "... (" + std::to_string(header.size()) + " columns)";
  std::string suffix = " (found columns: " + found + ")";
  const auto quoted_once = [&suffix] { return std::exchange(suffix, " (found columns: as above)"); };
  if (schema == CsvSchema::Helios)
    cols.index[TypeCol] = ABSENT;
  for (Col c : {JobIdCol, GpuNumCol, TypeCol, StateCol, SubmitTimeCol})
    if (!has(c) && !(c == TypeCol && schema == CsvSchema::Helios))
      problems.add(line_where(source, line_no), std::string(names[c]), "", "missing required column" + quoted_once());
  const bool has_duration = !names[DurationCol].empty(); // in the schema
  if (!has(DurationCol) && !(has(StartTimeCol) && has(EndTimeCol)))
    problems.add(line_where(source, line_no), std::string(names[has_duration ? DurationCol : StartTimeCol]), "",
                 "missing column: need " +
                     (has_duration ? std::string(names[DurationCol]) + ", or " : std::string()) +
                     "both " + std::string(names[StartTimeCol]) + " and " + std::string(names[EndTimeCol]) +
                     quoted_once());
  problems.throw_if_any();
  return cols;
}

// Turns split data rows into Jobs. Every bad field of a row is reported, not just the first,
// so that a user can fix the row in one pass; only the first diagnostics are kept, all counted.
class RowParser {
public:
  RowParser(const Columns& cols, const std::string& source, trace_io::BadRowLog& log)
      : cols_(cols), source_(source), log_(log), type_expected_("expected one of " + enum_name_list<JobType>()),
        state_expected_("expected one of " + enum_name_list<JobState>())
  {
  }

  // For a line that could not even be split into fields.
  void reject_line(std::size_t line_no, std::string_view message)
  {
    line_no_ = line_no;
    bad("", "", message);
    log_.end_row();
  }

  // False (and the row counted as bad) if the row is bad.
  bool parse(const std::vector<std::string_view>& fields, std::size_t line_no, Job& job)
  {
    fields_ = &fields;
    line_no_ = line_no;
    if (fields.size() != cols_.field_count) {
      reject_line(line_no, "expected " + std::to_string(cols_.field_count) + " fields as in the header, found " +
                               std::to_string(fields.size()));
      return false;
    }
    if (get(JobIdCol).empty())
      bad(JobIdCol, "expected a non-empty job id");
    job.gpus = count(GpuNumCol, true);
    job.trace_nodes = count(NodeNumCol, false);
    job.cpus = count(CpuNumCol, false);
    job.type = cols_.index[TypeCol] == ABSENT ? JobType::Other : take(TypeCol, parse_enum<JobType>, type_expected_);
    // A job of a run that never started: read as cancelled while pending.
    const bool never_started =
        cols_.schema == CsvSchema::Run && (get(StateCol) == REJECTED_STATE || get(StateCol) == STALLED_STATE);
    job.final_state = never_started ? JobState::Cancelled : take(StateCol, parse_enum<JobState>, state_expected_);
    job.submit_s = time(SubmitTimeCol);
    job.duration_s = duration();
    // Recorded for statistics only: the replay queues jobs itself. Empty: it never started.
    if (!get(QueueCol).empty())
      job.recorded_wait_s = take(QueueCol, parse_seconds, SECONDS_EXPECTED);
    if (!log_.end_row())
      return false;
    job.name.assign(get(JobIdCol)); // strings last: bad rows cost no allocation
    job.user = std::string(get(UserCol));
    job.home = std::string(get(PodCol));
    return true;
  }

private:
  // Absent columns read as empty cells, so optional columns and empty cells share one path.
  std::string_view get(Col c) const
  {
    return cols_.index[c] == ABSENT ? std::string_view{} : (*fields_)[cols_.index[c]];
  }

  void bad(std::string_view key, std::string_view value, std::string_view message)
  {
    log_.add(line_where(source_, line_no_), key, value, message);
  }
  void bad(Col c, std::string_view message) { bad((*cols_.names)[c], get(c), message); }

  // The parsed cell, or (after reporting it) a default value when `parse` rejects it.
  template <class T> T take(Col c, std::optional<T> (*parse_cell)(std::string_view), std::string_view message)
  {
    const auto value = parse_cell(get(c));
    if (!value)
      bad(c, message);
    return value.value_or(T{});
  }

  // A point in time: a timestamp in the Acme schemas, seconds in a run's jobs.csv.
  std::optional<double> time_of(Col c)
  {
    return cols_.schema == CsvSchema::Run ? parse_seconds(get(c)) : parse_timestamp(get(c));
  }
  double time(Col c)
  {
    const auto t = time_of(c);
    if (!t)
      bad(c, cols_.schema == CsvSchema::Run ? SECONDS_EXPECTED : TIMESTAMP_EXPECTED);
    return t.value_or(0.0);
  }

  int count(Col c, bool required)
  {
    return get(c).empty() && !required ? 0 : take(c, parse_count, "expected a non-negative integer");
  }

  // The recorded duration if there is one, else end - start. A job cancelled while pending
  // never started: no start time, and it ran for 0 s.
  double duration()
  {
    if (!get(DurationCol).empty())
      return take(DurationCol, parse_seconds, SECONDS_EXPECTED);
    if (get(StartTimeCol).empty()) {
      // Never started (cancelled or failed while pending; an end_time is then the moment it
      // left the queue): it ran for 0 s. A COMPLETED job cannot have done so.
      if (get(StateCol) == "COMPLETED")
        bad(StartTimeCol, "missing for a COMPLETED job without a duration");
      return 0;
    }
    const auto start = time_of(StartTimeCol);
    const auto end = time_of(EndTimeCol);
    const std::string_view expected = cols_.schema == CsvSchema::Run ? SECONDS_EXPECTED : TIMESTAMP_EXPECTED;
    if (!start)
      bad(StartTimeCol, expected);
    if (!end)
      bad(EndTimeCol, expected);
    else if (start && *end < *start)
      bad(EndTimeCol, "expected an " + std::string((*cols_.names)[EndTimeCol]) + " not before " +
                          std::string((*cols_.names)[StartTimeCol]) + " " + std::string(get(StartTimeCol)));
    return start && end && *end >= *start ? *end - *start : 0.0;
  }

  const Columns& cols_;
  const std::string& source_;
  trace_io::BadRowLog& log_;
  const std::string type_expected_;
  const std::string state_expected_;
  const std::vector<std::string_view>* fields_ = nullptr;
  std::size_t line_no_ = 0;
};

// Line reading is shared with the other trace readers.
using trace_io::is_blank;
using trace_io::throw_if_read_error;

void read_acme_jobs(const trace_io::TraceInput& input, Workload& workload, trace_io::BadRowLog& log,
                    CsvSchema schema)
{
  const std::string& source = input.source;
  trace_io::LineReader lines(input.in);
  std::string_view line;
  std::size_t line_no = 0;
  bool have_header = false;
  while (!have_header && lines.next(line, line_no))
    have_header = !is_blank(line);
  throw_if_read_error(input.in, source);
  if (!have_header)
    throw InputError(Diagnostic{source, "", "", "empty file, expected a header line"});

  std::string_view header = line;
  if (header.starts_with("\xEF\xBB\xBF")) // spreadsheet tools like to add a UTF-8 BOM
    header.remove_prefix(3);
  std::vector<std::string_view> fields;
  std::string scratch;
  if (const auto problem = split_csv_line(header, fields, scratch); !problem.empty())
    throw InputError(Diagnostic{line_where(source, line_no), "", "", "malformed header: " + std::string(problem)});
  const Columns cols = find_columns(fields, source, line_no, schema);

  RowParser parser(cols, source, log);
  while (lines.next(line, line_no)) {
    if (is_blank(line))
      continue;
    // Rows of one trace have similar lengths, so the first one predicts the row count.
    trace_io::reserve_for_lines(workload.jobs, input.size_hint, line.size(), 32);
    Job job;
    if (const auto problem = split_csv_line(line, fields, scratch); !problem.empty())
      parser.reject_line(line_no, problem);
    else if (parser.parse(fields, line_no, job))
      workload.jobs.push_back(std::move(job));
  }
  throw_if_read_error(input.in, source);
}

// The reader of one kind of Slurm job CSV.
trace_io::JobsReader acme_jobs_reader(CsvSchema schema)
{
  return [schema](const trace_io::TraceInput& input, Workload& workload, trace_io::BadRowLog& log) {
    read_acme_jobs(input, workload, log, schema);
  };
}

} // namespace

Workload read_acme_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row,
                         CsvSchema schema)
{
  return trace_io::read_workload(in, source_name, on_bad_row, acme_jobs_reader(schema));
}

Workload read_acme_trace_file(const std::string& path, BadRowPolicy on_bad_row, CsvSchema schema)
{
  return trace_io::read_workload_file(path, on_bad_row, acme_jobs_reader(schema));
}

} // namespace acmesim
