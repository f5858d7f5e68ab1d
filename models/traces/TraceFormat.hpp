#pragma once
// The job-trace formats acmesim reads, all mapped onto the same Job schema.
// See docs/trace-formats.md for how each source field maps and what is lost.
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace acmesim {

// The format a file name implies (only the last path component counts, case-insensitively):
// a .swf extension -> Swf; a .json extension, or a name containing "cluster_job_log" (Philly's
// file has no extension) -> Philly; a name containing "cluster_log" (Helios' cluster_log.csv)
// -> Helios; jobs.csv (a run's) -> Jobs; any other .csv -> Acme; anything else -> nullopt (the caller then needs an
// explicit format).
std::optional<TraceFormat> format_from_path(std::string_view path);

// Whether the format marks a field as unknown (-1), so that UnknownPolicy applies: SWF only.
constexpr bool marks_unknown_fields(TraceFormat format) { return format == TraceFormat::Swf; }

// Whether the format records the run time users requested (Job::requested_s), so that estimates
// default to it (workload.estimates: requested): SWF's field 9.
constexpr bool records_requested_time(TraceFormat format) { return format == TraceFormat::Swf; }

// Reads a trace file of the given format; InputError for unreadable files and bad rows
// (unless on_bad_row is Skip). `on_unknown` is the SWF reader's (SwfReader.hpp); other formats
// have no unknown marker and ignore it. The result is normalised (sorted, time 0 = first
// submission).
Workload read_trace_file(const std::string& path, TraceFormat format, BadRowPolicy on_bad_row,
                         UnknownPolicy on_unknown = UnknownPolicy::Error);

} // namespace acmesim
