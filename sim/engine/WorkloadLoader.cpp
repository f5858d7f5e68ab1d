#include "sim/engine/WorkloadLoader.hpp"

#include "models/evaluation/EvalCampaign.hpp"
#include "models/workload/TraceFormat.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "models/workload/SyntheticGenerator.hpp"

namespace acmesim {

namespace {

Workload load_jobs(const Scenario& scenario)
{
  const auto& spec = scenario.workload;
  if (spec.trace)
    return read_trace_file(spec.trace->path, spec.trace->format, spec.trace->on_bad_row);
  if (spec.acme_preset)
    return generate_acme_preset(embedded_published_acme(), spec.acme_preset->preset, spec.acme_preset->generator,
                                scenario.seed);
  if (spec.synthetic)
    return generate_synthetic_workload(*spec.synthetic, scenario.seed);
  Workload none; // evaluation campaigns only
  none.source = "evaluation";
  return none;
}

} // namespace

Workload load_workload(const Scenario& scenario)
{
  Workload workload = load_jobs(scenario);
  if (scenario.evaluation.enabled) {
    append_eval_campaigns(scenario.evaluation, workload);
    normalise_workload(workload);
  }
  return workload;
}

} // namespace acmesim
