#pragma once
// The mapping of Philly's jobs onto the Job schema (PhillyReader.hpp documents it field by
// field): each job the parser hands on (PhillyJobLogParser) is checked, every problem of it
// reported, and mapped.
#include "models/traces/PhillyRawJob.hpp"
#include "models/traces/TraceIo.hpp"
#include "models/workload/Job.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace acmesim::philly {

// The fields every job of a job log must have.
inline constexpr std::array<std::string_view, 4> REQUIRED_FIELDS{"jobid", "status", "submitted_time", "attempts"};

class JobMapper {
public:
  // Jobs go to `workload`, problems to `log`, both under the name `source`; all three must
  // outlive the mapper.
  JobMapper(Workload& workload, trace_io::BadRowLog& log, const std::string& source);

  // One element of the log: a Job if it is a good one, else its problems in the log.
  void map(const RawJob& raw);
  // InputError if some required field is in no job at all: then the input is not a Philly job
  // log, whatever the policy for bad jobs. `first_job_keys` lists the fields it has instead.
  void throw_if_schema_mismatch(const std::string& first_job_keys) const;

private:
  void bad(const RawJob& raw, std::string_view key, const JsonValue& value, std::string_view message);
  void note_required_fields(const RawJob& raw);
  std::optional<double> attempt_time(const RawJob& raw, const JsonValue& value, std::size_t i,
                                     std::string_view field, std::string_view missing);
  void map_attempts(const RawJob& raw, Job& job);

  Workload& workload_;
  trace_io::BadRowLog& log_;
  const std::string& source_;
  std::size_t jobs_seen_ = 0;
  std::array<bool, REQUIRED_FIELDS.size()> seen_{}; // whether any job has each required field
};

// Philly's part of trace_io::read_workload: the whole input parsed as a job log, each job mapped.
void read_job_log(const trace_io::TraceInput& input, Workload& workload, trace_io::BadRowLog& log);

} // namespace acmesim::philly
