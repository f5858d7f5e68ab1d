#pragma once
#include "models/workload/Job.hpp"
#include "sim/config/Scenario.hpp"

namespace acmesim {

// The scenario's job stream: its trace read, or its synthetic workload generated from the
// scenario seed. Throws InputError for bad trace rows (unless on_bad_row: skip).
Workload load_workload(const Scenario& scenario);

} // namespace acmesim
