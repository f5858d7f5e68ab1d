#include "sim/config/ScenarioChecks.hpp"

#include "models/checkpoint/CheckpointMath.hpp"
#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "sim/config/PhysicalRanges.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

namespace acmesim {

void check_utilisation_bins(const Scenario& scenario, const Workload& workload)
{
  double span = 0;
  for (const Job& job : workload.jobs)
    span = std::max(span, job.submit_s + job.duration_s);
  const double bin = scenario.output.utilisation_bin_s;
  if (span / bin > physical::MAX_UTILISATION_BINS)
    throw InputError(Diagnostic{
        "output.utilisation_bin_s", "output.utilisation_bin_s", format_number(bin),
        fmt::format("the workload spans at least {:.0f} s, which would make more than {:.0f} bins of utilisation.csv; "
                    "expected bins of at least {} s",
                    span, physical::MAX_UTILISATION_BINS, format_number(std::ceil(span / physical::MAX_UTILISATION_BINS)))});
}

std::optional<std::string> checkpoint_interval_warning(const Scenario& scenario, const Workload& workload)
{
  const CheckpointSpec& spec = scenario.checkpoint;
  if (!spec.enabled || spec.interval_policy != IntervalPolicy::Fixed || spec.interval_steps > 0)
    return std::nullopt;
  std::size_t raised = 0;
  double longest_step = 0;
  int gpus_of_longest = 0;
  for (const Job& job : workload.jobs) {
    if (job.cpu_only() || !spec.covers(job.type))
      continue;
    // The interval the run will use (a fixed one needs no failure rate); above interval_s only
    // when the step rule raised it.
    const double step = checkpoint_interval(spec, job.gpus, 0, 0);
    if (step <= spec.interval_s)
      continue;
    ++raised;
    if (step > longest_step) {
      longest_step = step;
      gpus_of_longest = job.gpus;
    }
  }
  if (raised == 0)
    return std::nullopt;
  return fmt::format("checkpoint.interval_s {} s is shorter than one training step of {} jobs (up to {:.0f} s, "
                     "on {} GPUs): they checkpoint every step instead",
                     format_number(spec.interval_s), raised, longest_step, gpus_of_longest);
}

std::vector<std::pair<std::string, std::string>> scenario_input_files(const Scenario& scenario)
{
  const std::pair<const char*, std::string> named[] = {
      {"workload.trace", scenario.workload.trace ? scenario.workload.trace->path : std::string()},
      {"failures.recorded", scenario.failures.recorded_path},
      {"evaluation.catalogue", scenario.evaluation.catalogue.source},
      {"scheduler.plugin", scenario.scheduler.plugin},
      {"scheduler.python", scenario.scheduler.python},
      {"scenario", scenario.source},
  };
  std::vector<std::pair<std::string, std::string>> inputs;
  std::error_code ec;
  for (const auto& [key, path] : named)
    if (!path.empty() && std::filesystem::is_regular_file(path, ec)) // none, or embedded
      inputs.emplace_back(key, path);
  return inputs;
}

} // namespace acmesim
