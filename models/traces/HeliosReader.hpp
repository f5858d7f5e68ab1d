#pragma once
// Reader for the SenseTime Helios traces (S-Lab-System-Group/HeliosData, SC'21): one
// cluster_log.csv per cluster, with the header
//   job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue
// Helios is a Slurm datacenter like Acme's: the columns it shares with the Acme trace mean the
// same, its states are the same Slurm names, and it has no job types (every job is Other).
// Timestamps ("2020-06-09 18:41:01") carry no zone and are read as UTC. See
// docs/trace-formats.md for the whole mapping.
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <istream>
#include <string>

namespace acmesim {

// Reads a whole cluster_log.csv. Columns are found by header name, in any order; queue is kept as
// the recorded queueing delay (statistics only); vc and unknown columns are ignored. Required: job_id, gpu_num, state, submit_time, and duration or
// start_time + end_time; user, cpu_num and node_num may be absent or empty (""/0). An empty
// duration falls back to end_time - start_time, and to 0 without a start_time (cancelled while
// pending). States: COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL (anything else, such as
// the one SUSPENDED job of Uranus, is a bad row).
// Bad rows are reported as the Acme reader does ("<source_name>:<line>", column, value; the
// first 50 problems and a count of the rest), or skipped and counted with BadRowPolicy::Skip. A
// missing required column or an empty input is always an error. The result is normalised.
Workload read_helios_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row);
// As above with source_name = path; a file that cannot be opened is an InputError too.
Workload read_helios_trace_file(const std::string& path, BadRowPolicy on_bad_row);

} // namespace acmesim
