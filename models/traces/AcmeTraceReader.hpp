#pragma once
// Reader for the Acme job traces (InternLM/AcmeTrace, NSDI'24): trace_seren.csv and
// trace_kalos.csv. Columns are found by header name, so both schemas (Kalos adds
// mem_per_pod_GB, shared_mem_per_pod, fail_time, stop_time) and any column order work.
#include "models/traces/TraceTimestamp.hpp"
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace acmesim {

// Slurm-style job CSVs share this reader. Helios' cluster_log.csv has no job types (the `type`
// column is neither needed nor read, every job is Other). `queue`, where present, is the job's
// queueing delay in seconds (start - submit), kept for statistics (Job::recorded_wait_s). A run's
// own jobs.csv (Run) names its columns differently, gives times in seconds, the pod each job ran
// on (read as its home) and REJECTED for jobs that never started (read as cancelled while pending).
enum class CsvSchema { Acme, Helios, Run };

// Reads a whole trace. Every bad row of the input is reported in one InputError (the first 50
// problems, each naming "<source_name>:<line>", column and value, plus a count of the rest);
// with BadRowPolicy::Skip bad rows are skipped and counted in Workload::skipped_rows instead.
// A missing required column (job_id, gpu_num, type, state, submit_time, and duration or
// start_time + end_time) or an empty input is always an error. Blank lines are ignored; an
// empty optional cell (user, node_num, cpu_num) reads as ""/0; an empty duration falls back to
// end_time - start_time, and to 0 without a start_time (cancelled while pending). Quoted CSV
// fields may not span lines. The result is normalised (sorted by submission, time 0 = first
// submission, dense ids).
Workload read_acme_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row,
                         CsvSchema schema = CsvSchema::Acme);
// As above with source_name = path; a file that cannot be opened is an InputError too.
Workload read_acme_trace_file(const std::string& path, BadRowPolicy on_bad_row,
                              CsvSchema schema = CsvSchema::Acme);

} // namespace acmesim
