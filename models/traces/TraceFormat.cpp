#include "models/traces/TraceFormat.hpp"

#include "models/common/InputError.hpp"
#include "models/traces/AcmeTraceReader.hpp"
#include "models/traces/HeliosReader.hpp"
#include "models/traces/PhillyReader.hpp"
#include "models/traces/SwfReader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <filesystem>

namespace acmesim {

namespace {

std::string to_lower(std::string_view s)
{
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

} // namespace

std::optional<TraceFormat> format_from_path(std::string_view path)
{
  // Only the file name: a directory called "cluster_log_archive/" says nothing about the file.
  // A compressed file is named as what it holds plus its compression's suffix (the Parallel
  // Workloads Archive's "CTC-SP2-1996-3.1-cln.swf.gz"); its content, read later, tells whether
  // acmesim reads that compression (FileContent.hpp).
  std::string name = to_lower(std::filesystem::path(path).filename().string());
  for (const std::string_view suffix : {".gz", ".bz2", ".xz", ".zst", ".zip", ".7z"})
    if (name.ends_with(suffix)) {
      name.resize(name.size() - suffix.size());
      break;
    }
  if (name.ends_with(".swf"))
    return TraceFormat::Swf;
  if (name.ends_with(".json") || name.find("cluster_job_log") != std::string::npos)
    return TraceFormat::Philly;
  if (name.find("cluster_log") != std::string::npos)
    return TraceFormat::Helios;
  if (name == "jobs.csv")
    return TraceFormat::Jobs;
  if (name.ends_with(".csv"))
    return TraceFormat::Acme;
  return std::nullopt;
}

Workload read_trace_file(const std::string& path, TraceFormat format, BadRowPolicy on_bad_row, UnknownPolicy on_unknown)
{
  switch (format) {
  case TraceFormat::Acme:
    return read_acme_trace_file(path, on_bad_row);
  case TraceFormat::Swf:
    return read_swf_trace_file(path, on_bad_row, on_unknown);
  case TraceFormat::Philly:
    return read_philly_trace_file(path, on_bad_row);
  case TraceFormat::Helios:
    return read_helios_trace_file(path, on_bad_row);
  case TraceFormat::Jobs:
    return read_acme_trace_file(path, on_bad_row, CsvSchema::Run);
  }
  throw InputError(Diagnostic{path, "format", std::to_string(static_cast<int>(format)),
                              "unknown trace format, expected one of " + enum_name_list<TraceFormat>()});
}

} // namespace acmesim
