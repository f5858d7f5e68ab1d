#include "models/workload/HeliosReader.hpp"

#include "models/workload/AcmeTraceReader.hpp"
#include "models/workload/TraceFormat.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace acmesim {

namespace {

using trace_io::BadRowLog;

constexpr std::string_view TIMESTAMP_EXPECTED = "expected a timestamp like 2020-06-09 18:41:01";

enum Col : std::size_t { JobIdCol, UserCol, GpuNumCol, CpuNumCol, NodeNumCol, StateCol, SubmitTimeCol,
                         StartTimeCol, EndTimeCol, DurationCol, COLUMN_COUNT };
constexpr std::array<std::string_view, COLUMN_COUNT> COLUMN_NAMES{
    "job_id", "user", "gpu_num", "cpu_num", "node_num", "state", "submit_time", "start_time", "end_time", "duration"};
constexpr std::size_t ABSENT = std::numeric_limits<std::size_t>::max();

// Non-negative integer; "8.0" too, since pandas writes integer columns holding a gap as floats.
std::optional<int> parse_count(std::string_view s)
{
  int value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc{} || ptr == s.data() || value < 0)
    return std::nullopt;
  if (ptr != end && (*ptr != '.' || !std::all_of(ptr + 1, end, [](char c) { return c == '0'; })))
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

// Splits one line at commas into views of `line`, except that quoted fields ("a,b", "say ""hi""")
// are unescaped into `scratch`, reserved up front so that earlier views stay valid. Quoted fields
// cannot span lines (the trace has none, and line numbers stay exact). Returns what is wrong with
// the line, or an empty view.
std::string_view split_csv(std::string_view line, std::vector<std::string_view>& fields, std::string& scratch)
{
  fields.clear();
  scratch.clear();
  scratch.reserve(line.size());
  for (std::size_t pos = 0;;) {
    const std::size_t first = std::min(line.find_first_not_of(" \t", pos), line.size());
    if (first == line.size() || line[first] != '"') {
      const std::size_t comma = std::min(line.find(',', pos), line.size());
      fields.push_back(trace_io::trim(line.substr(pos, comma - pos)));
      if (comma == line.size())
        return {};
      pos = comma + 1;
      continue;
    }
    const std::size_t start = scratch.size();
    for (pos = first + 1;;) {
      const std::size_t quote = line.find('"', pos);
      if (quote == std::string_view::npos)
        return "expected a closing '\"' before the end of the line";
      scratch.append(line.substr(pos, quote - pos));
      pos = quote + 1;
      if (pos == line.size() || line[pos] != '"')
        break;
      scratch.push_back('"'); // a doubled quote inside quotes is one quote
      ++pos;
    }
    fields.push_back(std::string_view(scratch).substr(start));
    pos = std::min(line.find_first_not_of(" \t", pos), line.size());
    if (pos == line.size())
      return {};
    if (line[pos] != ',')
      return "expected ',' after a closing '\"'";
    ++pos;
  }
}

struct Columns {
  std::array<std::size_t, COLUMN_COUNT> index{};
  std::size_t field_count = 0;
};

Columns find_columns(const std::vector<std::string_view>& header, const std::string& where)
{
  Columns cols;
  cols.index.fill(ABSENT);
  cols.field_count = header.size();
  std::string found;
  DiagnosticList problems;
  for (std::size_t i = 0; i < header.size(); ++i) {
    found += (i == 0 ? "" : ", ") + std::string(header[i]);
    const auto it = std::find(COLUMN_NAMES.begin(), COLUMN_NAMES.end(), header[i]);
    if (it == COLUMN_NAMES.end())
      continue;
    std::size_t& index = cols.index[static_cast<std::size_t>(it - COLUMN_NAMES.begin())];
    if (index != ABSENT) // which one is meant cannot be known
      problems.add(where, std::string(*it), "",
                   "column appears twice in the header (columns " + std::to_string(index + 1) + " and " +
                       std::to_string(i + 1) + ")");
    else
      index = i;
  }
  auto has = [&](Col c) { return cols.index[c] != ABSENT; };
  const std::string suffix = " (found columns: " + found + ")";
  for (Col c : {JobIdCol, GpuNumCol, StateCol, SubmitTimeCol})
    if (!has(c))
      problems.add(where, std::string(COLUMN_NAMES[c]), "", "missing required column" + suffix);
  if (!has(DurationCol) && !(has(StartTimeCol) && has(EndTimeCol)))
    problems.add(where, "duration", "", "missing column: need duration, or both start_time and end_time" + suffix);
  problems.throw_if_any();
  return cols;
}

// Turns split rows into Jobs, reporting every bad field of a row.
class RowParser {
public:
  RowParser(const Columns& cols, BadRowLog& log, const std::string& source)
      : cols_(cols), log_(log), source_(source), state_expected_("expected one of " + job_state_names())
  {
  }

  void reject_line(std::size_t line_no, std::string_view message)
  {
    line_no_ = line_no;
    bad("", "", message);
    log_.end_row();
  }

  bool parse(const std::vector<std::string_view>& fields, std::size_t line_no, Job& job)
  {
    if (fields.size() != cols_.field_count) {
      reject_line(line_no, "expected " + std::to_string(cols_.field_count) + " fields as in the header, found " +
                               std::to_string(fields.size()));
      return false;
    }
    fields_ = &fields;
    line_no_ = line_no;
    if (get(JobIdCol).empty())
      bad(JobIdCol, "expected a non-empty job id");
    job.gpus = count(GpuNumCol, true);
    job.cpus = count(CpuNumCol, false);
    job.trace_nodes = count(NodeNumCol, false);
    job.final_state = take(StateCol, parse_job_state, state_expected_);
    job.submit_s = take(SubmitTimeCol, parse_timestamp, TIMESTAMP_EXPECTED);
    job.duration_s = duration();
    if (!log_.end_row())
      return false;
    job.type = JobType::Other;
    job.name.assign(get(JobIdCol)); // strings last: bad rows cost no allocation
    job.user.assign(get(UserCol));
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
    log_.add(source_ + ":" + std::to_string(line_no_), key, value, message);
  }
  void bad(Col c, std::string_view message) { bad(COLUMN_NAMES[c], get(c), message); }

  template <class T> T take(Col c, std::optional<T> (*parse_cell)(std::string_view), std::string_view message)
  {
    const auto value = parse_cell(get(c));
    if (!value)
      bad(c, message);
    return value.value_or(T{});
  }

  int count(Col c, bool required)
  {
    return get(c).empty() && !required ? 0 : take(c, parse_count, "expected a non-negative integer");
  }

  // The recorded duration, else end - start; 0 for a job that never started.
  double duration()
  {
    if (!get(DurationCol).empty())
      return take(DurationCol, parse_seconds, "expected a non-negative number of seconds, at most 1e9");
    if (get(StartTimeCol).empty()) {
      // Never started (cancelled or failed while pending; an end_time is then the moment it
      // left the queue): it ran for 0 s. A COMPLETED job cannot have done so.
      if (get(StateCol) == "COMPLETED")
        bad(StartTimeCol, "missing for a COMPLETED job without a duration");
      return 0;
    }
    const auto start = parse_timestamp(get(StartTimeCol));
    const auto end = parse_timestamp(get(EndTimeCol));
    if (!start)
      bad(StartTimeCol, TIMESTAMP_EXPECTED);
    if (!end)
      bad(EndTimeCol, TIMESTAMP_EXPECTED);
    else if (start && *end < *start)
      bad(EndTimeCol, "expected an end_time not before start_time " + std::string(get(StartTimeCol)));
    return start && end && *end >= *start ? *end - *start : 0.0;
  }

  const Columns& cols_;
  BadRowLog& log_;
  const std::string& source_;
  const std::string state_expected_;
  const std::vector<std::string_view>* fields_ = nullptr;
  std::size_t line_no_ = 0;
};

Workload read_helios(std::istream& in, const std::string& source, BadRowPolicy on_bad_row, std::uintmax_t size_hint)
{
  std::string line;
  std::size_t line_no = 0;
  bool have_header = false;
  while (!have_header && trace_io::next_line(in, line, line_no))
    have_header = !trace_io::is_blank(line);
  trace_io::throw_if_read_error(in, source);
  if (!have_header)
    throw InputError(Diagnostic{source, "", "", "empty file, expected a header line"});

  std::string_view header = line;
  if (header.starts_with("\xEF\xBB\xBF")) // spreadsheet tools like to add a UTF-8 BOM
    header.remove_prefix(3);
  std::vector<std::string_view> fields;
  std::string scratch;
  const std::string header_where = source + ":" + std::to_string(line_no);
  if (const auto problem = split_csv(header, fields, scratch); !problem.empty())
    throw InputError(Diagnostic{header_where, "", "", "malformed header: " + std::string(problem)});
  const Columns cols = find_columns(fields, header_where);

  Workload workload;
  workload.source = source;
  BadRowLog log(source);
  RowParser parser(cols, log, source);
  while (trace_io::next_line(in, line, line_no)) {
    if (trace_io::is_blank(line))
      continue;
    if (size_hint > 0 && workload.jobs.capacity() == 0) {
      // Rows of one trace have similar lengths, so the first one predicts the row count.
      const std::uintmax_t row_bytes = std::max<std::uintmax_t>(line.size() + 1, 32);
      workload.jobs.reserve(static_cast<std::size_t>(size_hint / row_bytes + 16));
    }
    Job job;
    if (const auto problem = split_csv(line, fields, scratch); !problem.empty())
      parser.reject_line(line_no, problem);
    else if (parser.parse(fields, line_no, job))
      workload.jobs.push_back(std::move(job));
  }
  trace_io::throw_if_read_error(in, source);
  trace_io::finish_workload(workload, log, on_bad_row);
  return workload;
}

} // namespace

Workload read_helios_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row)
{
  return read_helios(in, source_name, on_bad_row, 0);
}

Workload read_helios_trace_file(const std::string& path, BadRowPolicy on_bad_row)
{
  trace_io::TraceFile file(path);
  return read_helios(file.stream(), path, on_bad_row, file.size());
}

} // namespace acmesim
