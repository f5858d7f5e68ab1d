#include "sim/config/AcmePresetSection.hpp"

#include "models/acme/AcmeGenerator.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/config/SyntheticSection.hpp"

#include <string_view>

namespace acmesim {

namespace {

// The presets as the generator declares them (ACME_PRESETS, AcmeGenerator.hpp).
std::vector<std::string> acme_preset_names()
{
  std::vector<std::string> names;
  const std::string_view all(ACME_PRESETS), separator(", ");
  for (std::size_t start = 0; start <= all.size();) {
    const std::size_t end = std::min(all.find(separator, start), all.size());
    names.emplace_back(all.substr(start, end - start));
    start = end + separator.size();
  }
  return names;
}

const KeyTable<AcmeGeneratorSpec>& generator_keys()
{
  using G = AcmeGeneratorSpec;
  static const KeyTable<G> keys({
      number_key("days", &G::days, physical::DAYS, "days", "length of the generated trace"),
      number_key("users", &G::users, integer_between(1, 1e6), "users", "users the jobs are spread over"),
      number_key("gpu_jobs_per_day", &G::gpu_jobs_per_day, number_between(0, 1e6), "jobs/day",
                 "GPU jobs per day; 0: the rate that offers the published GPU time per day"),
      // The CPU-only job count is derived from the GPU one: gpu x share / (1 - share).
      number_key("cpu_job_share", &G::cpu_job_share, number_between(0, 0.9), NO_UNIT,
                 "CPU-only jobs as a share of all jobs")
          .default_is("the published share"),
      number_key("diurnal_amplitude", &G::diurnal_amplitude, number_between(0, 1), NO_UNIT,
                 "daily rhythm: the rate is x (1 + amplitude x cos(2 pi (hour - peak_hour) / 24))"),
      number_key("peak_hour", &G::peak_hour, number_between(0, 24), "hour of day", "the daily peak of arrivals"),
      number_key("weekend_factor", &G::weekend_factor, number_between(0, 10), NO_UNIT,
                 "the arrival rate on Saturdays and Sundays, relative to weekdays"),
      number_key("eval_batch_mean", &G::eval_batch_mean, number_between(1, 1e4), "jobs",
                 "evaluation jobs per batch (geometric; one user's; 1: no batches)"),
      number_key("campaign_busy_share", &G::campaign_busy_share, number_between(0, 1), NO_UNIT,
                 "pretraining jobs are attempts of concurrent campaigns, one after another, each busy this "
                 "share of the time (0: no campaigns)"),
  });
  return keys;
}

const KeyTable<AcmePresetSpec>& acme_preset_keys()
{
  static const KeyTable<AcmePresetSpec> keys({
      {choice_key("preset", &AcmePresetSpec::preset, acme_preset_names(),
                  "the published cluster whose distributions the jobs follow (acme: both, merged)")
           .default_is("none: the job types are then given by hand")},
      generator_keys().of_member(&AcmePresetSpec::generator),
  });
  return keys;
}

} // namespace

AcmePresetSpec read_acme_preset(ConfigChecker& checker, const ConfigNode& node, double load_scale)
{
  AcmePresetSpec spec;
  acme_preset_keys().read_map(checker, &node, "workload.synthetic", spec);
  // Zero means "the rate that offers the published GPU time" (Seren: about 2,500 GPU jobs a
  // day); the bound on memory uses the summary's larger job count (about 3,600 a day), plus
  // CPU jobs.
  const AcmeGeneratorSpec& g = spec.generator;
  const double per_day = (g.gpu_jobs_per_day > 0 ? g.gpu_jobs_per_day : 3608) * load_scale;
  const double cpu_share = g.cpu_job_share >= 0 ? g.cpu_job_share : 0.7; // published: Seren 0.36, Kalos 0.68
  if (per_day * g.days / (1 - cpu_share) > MAX_EXPECTED_JOBS)
    checker.error(node, "workload.synthetic",
                  "expects about " + std::to_string(static_cast<long long>(per_day * g.days)) +
                      " GPU jobs and more CPU jobs; at most 50,000,000 jobs are supported");
  return spec;
}

Json acme_preset_to_json(const AcmePresetSpec& spec) { return acme_preset_keys().echo(spec); }

std::vector<KeyDoc> acme_preset_key_docs(const std::string& path)
{
  return acme_preset_keys().docs(path, AcmePresetSpec{});
}

} // namespace acmesim
