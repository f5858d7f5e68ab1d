#include "sim/engine/WorkloadLoader.hpp"

#include "models/workload/AcmeTraceReader.hpp"
#include "models/workload/SyntheticGenerator.hpp"

namespace acmesim {

Workload load_workload(const Scenario& scenario)
{
  const auto& spec = scenario.workload;
  if (spec.trace)
    return read_acme_trace_file(spec.trace->path, spec.trace->on_bad_row);
  return generate_synthetic_workload(*spec.synthetic, scenario.seed);
}

} // namespace acmesim
