#include "sim/config/WorkloadLoader.hpp"

#include "models/acme/AcmeGenerator.hpp"
#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "models/evaluation/EvalCampaign.hpp"
#include "models/traces/TraceFormat.hpp"
#include "models/workload/LoadScale.hpp"
#include "models/workload/SyntheticGenerator.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/SyntheticSection.hpp"
#include "sim/config/WorkloadSection.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace acmesim {

namespace {

// A replayed trace at workload.load_scale, within the jobs a run can hold.
Workload replay_trace(const Scenario& scenario)
{
  const auto& spec = scenario.workload;
  Workload w = read_trace_file(spec.trace->path, spec.trace->format, spec.trace->on_bad_row, spec.trace->on_unknown);
  const double expected = spec.load_scale * static_cast<double>(w.jobs.size());
  if (expected > MAX_EXPECTED_JOBS)
    throw InputError(Diagnostic{scenario.source, LOAD_SCALE_KEY, fmt::format("{:g}", spec.load_scale),
                                fmt::format("would replay about {:.0f} of the trace's {} jobs; at most {:.0f} are "
                                            "supported",
                                            expected, w.jobs.size(), MAX_EXPECTED_JOBS)});
  resample_arrivals(w, spec.load_scale, scenario.seed);
  return w;
}

Workload load_jobs(const Scenario& scenario)
{
  const auto& spec = scenario.workload;
  if (spec.trace)
    return replay_trace(scenario);
  if (spec.acme_preset) {
    AcmeGeneratorSpec generator = spec.acme_preset->generator;
    generator.load_scale = spec.load_scale;
    return generate_acme_preset(embedded_published_acme(), spec.acme_preset->preset, generator, scenario.seed);
  }
  if (spec.synthetic)
    return generate_synthetic_workload(scaled_synthetic(*spec.synthetic, spec.load_scale), scenario.seed);
  Workload none; // evaluation campaigns only
  none.source = "evaluation";
  return none;
}

// With pods scheduled separately, every GPU job runs on the pod named after its home cluster.
// One diagnostic for all the jobs that have none: one mistake usually concerns every job.
void bind_to_home_pods(const Scenario& scenario, Workload& workload)
{
  const auto& pods = scenario.cluster.pods;
  std::vector<std::string> names;
  for (const PodSpec& p : pods)
    names.push_back(p.name);
  const Job* first_homeless = nullptr;
  std::size_t homeless = 0;
  for (Job& job : workload.jobs) {
    if (job.cpu_only())
      continue;
    const auto pod = std::find(names.begin(), names.end(), job.home);
    if (pod != names.end()) {
      job.pod = static_cast<int>(pod - names.begin());
      continue;
    }
    first_homeless = first_homeless ? first_homeless : &job;
    ++homeless;
  }
  if (!first_homeless)
    return;
  const Job& j = *first_homeless;
  throw InputError(Diagnostic{
      scenario.source, "scheduler.pods", "separate",
      "each job must run on the pod named after its home cluster, and " + std::to_string(homeless) +
          " GPU jobs cannot: the first, " + j.name +
          (j.home.get().empty() ? ", has no home cluster" : ", is from cluster '" + j.home.get() + "'") + "; the cluster's pods are " +
          join_names(names) + " (the acme generator's jobs and a run's jobs.csv have a home; other traces do not)"});
}

} // namespace

Workload load_workload(const Scenario& scenario)
{
  Workload workload = load_jobs(scenario);
  if (scenario.evaluation.enabled) {
    append_eval_campaigns(scenario.evaluation, workload);
    normalise_workload(workload);
  }
  if (scenario.scheduler.pods == PodScheduling::Separate)
    bind_to_home_pods(scenario, workload);
  return workload;
}

} // namespace acmesim
