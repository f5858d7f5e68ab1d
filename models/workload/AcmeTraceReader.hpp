#pragma once
// Reader for the Acme job traces (InternLM/AcmeTrace, NSDI'24): trace_seren.csv and
// trace_kalos.csv. Columns are found by header name, so both schemas (Kalos adds
// mem_per_pod_GB, shared_mem_per_pod, fail_time, stop_time) and any column order work.
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace acmesim {

// Parses "2023-03-01 00:18:22+08:00" (also with 'T', a 'Z' or '+0800' offset, fractional
// seconds, or no offset, which means UTC) into seconds since the Unix epoch.
// std::nullopt if the text is not such a timestamp.
std::optional<double> parse_timestamp(std::string_view text);

// Reads a whole trace. Bad rows are InputErrors naming file, line, column and value; with
// BadRowPolicy::Skip they are skipped and counted in Workload::skipped_rows instead.
// `source_name` is used in messages (normally the path). The result is normalised
// (sorted by submission, time 0 = first submission, dense ids).
Workload read_acme_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row);
Workload read_acme_trace_file(const std::string& path, BadRowPolicy on_bad_row);

} // namespace acmesim
