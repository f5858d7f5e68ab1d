#include "models/traces/RunJobWaits.hpp"

#include "models/common/InputError.hpp"
#include "models/traces/JobsCsvColumns.hpp"
#include "models/traces/TraceIo.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace acmesim {

namespace {

using C = JobsCsvColumn;
// The columns read, at these positions of READ; recorded_wait_s alone may be missing.
enum Read : std::size_t { Size, Wait, Jct, Recorded };
constexpr std::array<C, 4> READ{C::Gpus, C::WaitS, C::JctS, C::RecordedWaitS};
constexpr std::size_t ABSENT = static_cast<std::size_t>(-1);

std::optional<double> number(std::string_view cell)
{
  double value = 0;
  const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (ec != std::errc{} || ptr != cell.data() + cell.size() || !std::isfinite(value) || value < 0)
    return std::nullopt;
  return value;
}

} // namespace

RunJobWaits read_run_job_waits(const std::string& path)
{
  trace_io::TraceFile file(path);
  trace_io::LineReader lines(file.stream());
  trace_io::BadRowLog log(path);
  std::vector<std::string_view> fields;
  std::string scratch;
  std::string_view line;
  std::size_t line_no = 0;
  const auto where = [&] { return path + ":" + std::to_string(line_no); };
  if (!lines.next(line, line_no))
    throw InputError(Diagnostic{path, "", "", "empty: expected a run's jobs.csv, with its header"});
  if (const auto problem = trace_io::split_csv_line(line, fields, scratch); !problem.empty())
    throw InputError(Diagnostic{where(), "header", "", std::string(problem)});
  const std::size_t field_count = fields.size();
  std::array<std::size_t, READ.size()> index{};
  index.fill(ABSENT);
  DiagnosticList missing;
  for (std::size_t c = 0; c < READ.size(); ++c) {
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == to_string(READ[c]))
        index[c] = i;
    if (index[c] == ABSENT && c != Recorded)
      missing.add(where(), std::string(to_string(READ[c])), "",
                  "missing column: expected a run's jobs.csv (docs/outputs.md)");
  }
  missing.throw_if_any();
  RunJobWaits out;
  out.recorded_column = index[Recorded] != ABSENT;
  while (lines.next(line, line_no)) {
    if (trace_io::is_blank(line))
      continue;
    if (const auto problem = trace_io::split_csv_line(line, fields, scratch); !problem.empty()) {
      log.add(where(), "", "", problem);
      log.end_row();
      continue;
    }
    if (fields.size() != field_count) {
      log.add(where(), "", "", "expected " + std::to_string(field_count) + " fields as in the header, found " +
                                   std::to_string(fields.size()));
      log.end_row();
      continue;
    }
    // A cell's non-negative number, or -1 where it may be empty (a job that never started, a wait
    // not recorded).
    const auto number_in = [&](Read c, bool may_be_empty) {
      if (index[c] == ABSENT)
        return -1.0;
      const std::string_view cell = fields[index[c]];
      if (cell.empty() && may_be_empty)
        return -1.0;
      const auto value = number(cell);
      if (!value)
        log.add(where(), to_string(READ[c]), cell, "expected a non-negative number");
      return value.value_or(-1.0);
    };
    RunJobWait job;
    job.size = static_cast<int>(number_in(Size, false));
    job.simulated_wait_s = number_in(Wait, true);
    const double jct = number_in(Jct, true);
    job.recorded_wait_s = number_in(Recorded, true);
    if (job.simulated_wait_s >= 0 && jct >= 0)
      job.run_s = std::max(0.0, jct - job.simulated_wait_s);
    if (log.end_row())
      out.jobs.push_back(job);
  }
  trace_io::throw_if_read_error(file.stream(), path);
  log.throw_if_any();
  return out;
}

} // namespace acmesim
