#pragma once
// Reader for the Microsoft Philly trace (msr-fiddle/philly-traces, ATC'19): the cluster_job_log
// file, a JSON array with one object per job:
//   {"jobid", "user", "vc", "status": "Pass" | "Killed" | "Failed", "submitted_time",
//    "attempts": [{"start_time", "end_time", "detail": [{"ip", "gpus": ["gpu0", ...]}]}]}
// Timestamps ("2017-10-07 01:11:39") carry no zone and are read as UTC. See
// docs/trace-formats.md for the whole mapping.
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <istream>
#include <string>

namespace acmesim {

// Reads a whole cluster_job_log. Per job: name = jobid, user = user ("" if absent or null),
// type Other, state Pass -> COMPLETED, Killed -> CANCELLED, Failed -> FAILED;
// submit_s = submitted_time; gpus = GPUs of the last attempt (summed over its servers),
// trace_nodes = servers of the last attempt, cpus = 0 (not recorded);
// duration_s = end_time of the last attempt - start_time of the first: the span from the first
// start to the final end, retries and the gaps between them included, as the trace's own
// analysis notebook measures run time (earlier attempts are retries). A job without attempts
// never ran: 0 GPUs, 0 s. A missing start_time of the first attempt (a logging gap) or end_time
// of the last one (the job was still running when the trace was taken) makes a bad job.
//
// A JSON syntax error is an InputError at "<source_name>:<line>:<column>". A bad job is reported
// at "<source_name>:job <index>" (index from 0, as jq '.[index]' counts) with the field path as
// key ("attempts[1].end_time"), or skipped and counted with BadRowPolicy::Skip. An empty input, a
// top level other than an array, or a required field (jobid, status, submitted_time, attempts)
// absent from every job is always an error. The result is normalised.
Workload read_philly_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row);
// As above with source_name = path; a file that cannot be opened is an InputError too.
Workload read_philly_trace_file(const std::string& path, BadRowPolicy on_bad_row);

} // namespace acmesim
