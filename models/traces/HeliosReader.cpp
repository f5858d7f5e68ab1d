#include "models/traces/HeliosReader.hpp"

#include "models/traces/AcmeTraceReader.hpp"

namespace acmesim {

// Helios' cluster_log.csv is the Acme trace's Slurm CSV without job types: the same columns by
// name (queue: the queueing delay in seconds), the same states and timestamps (here without a
// zone, read as UTC), vc ignored like any unknown column. One reader serves both.
Workload read_helios_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row)
{
  return read_acme_trace(in, source_name, on_bad_row, CsvSchema::Helios);
}

Workload read_helios_trace_file(const std::string& path, BadRowPolicy on_bad_row)
{
  return read_acme_trace_file(path, on_bad_row, CsvSchema::Helios);
}

} // namespace acmesim
