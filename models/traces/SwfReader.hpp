#pragma once
// Reader for the Standard Workload Format (SWF, version 2.2) of the Parallel Workloads Archive
// (Feitelson et al.): one job per line, 18 whitespace-separated numeric fields, -1 = unknown,
// lines starting with ';' are header comments.
//
// SWF describes CPU clusters and has no GPUs: the job's processors are read as its GPU count
// (allocated processors, field 5, or requested processors, field 8, when field 5 is -1), so that
// a CPU-cluster workload can be replayed as GPU demand. Every job is of type Other. See
// docs/trace-formats.md for the whole mapping.
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <istream>
#include <string>

namespace acmesim {

// Reads a whole SWF log. Field by field:
//  1 job number -> name;  2 submit time (s) -> submit_s (-1 is a bad row);
//  4 run time (s) -> duration_s (-1, negative or NaN is a bad row);
//  5 allocated processors, else 8 requested processors -> gpus (both -1 is a bad row);
//  11 status: 1 COMPLETED, 0 FAILED, 5 CANCELLED, -1 (unknown, as in models) COMPLETED;
//     2, 3 and 4 mark records of single partial executions of a checkpointed or swapped job,
//     whose whole-job line (status 0, 1 or 5) is in the log too: they are passed over, neither
//     jobs nor bad rows; any other status is a bad row;
//  12 user id -> user ("" when -1). The other fields and the header comments are not used.
// Bad rows are reported as the Acme reader does ("<source_name>:<line>", the field as
// "field N (name)", the value; the first 50 problems and a count of the rest), or skipped and
// counted with BadRowPolicy::Skip. With UnknownPolicy::Drop a job whose submit time, run time or
// size (fields 5 and 8 both) is -1 is dropped and counted in Workload::dropped_unknown instead of
// being a bad row; its other fields are not checked. An input without any line is an error; one
// with only comments gives an empty workload. The result is normalised (sorted, time 0 = first
// submission).
Workload read_swf_trace(std::istream& in, const std::string& source_name, BadRowPolicy on_bad_row,
                        UnknownPolicy on_unknown = UnknownPolicy::Error);
// As above with source_name = path; a file that cannot be opened is an InputError too.
Workload read_swf_trace_file(const std::string& path, BadRowPolicy on_bad_row,
                             UnknownPolicy on_unknown = UnknownPolicy::Error);

} // namespace acmesim
