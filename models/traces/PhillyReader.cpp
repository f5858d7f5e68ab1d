#include "models/traces/PhillyReader.hpp"

#include "models/traces/PhillyJobMapper.hpp"
#include "models/traces/TraceIo.hpp"

// The reading itself is in two parts: PhillyJobLogParser streams the JSON and keeps what is
// mapped of each job, PhillyJobMapper checks and maps it.
namespace acmesim {

Workload read_philly_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row)
{
  return trace_io::read_workload(in, source_name, on_bad_row, philly::read_job_log);
}

Workload read_philly_trace_file(const std::string& path, BadRowPolicy on_bad_row)
{
  return trace_io::read_workload_file(path, on_bad_row, philly::read_job_log);
}

} // namespace acmesim
