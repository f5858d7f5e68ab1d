#pragma once
// Writes a workload as an Acme trace CSV (the Seren schema), so that every tool that reads
// AcmeTrace files reads generated traces too. Jobs start at submission (queue 0): a generated
// trace describes demand, and the simulator decides when jobs start.
#include "models/workload/Job.hpp"

#include <ostream>

namespace acmesim {

// `origin_epoch_s` is the wall-clock time of simulation time 0; timestamps are written in the
// zone `utc_offset_s` east of UTC (Seren's trace uses +08:00).
void write_acme_trace(std::ostream& out, const Workload& workload, double origin_epoch_s, int utc_offset_s);

// 2023-03-01 00:00:00+08:00, the first day of the Acme traces (Seren).
inline constexpr double ACME_TRACE_ORIGIN_EPOCH_S = 1677600000;
inline constexpr int ACME_TRACE_UTC_OFFSET_S = 8 * 3600;

} // namespace acmesim
