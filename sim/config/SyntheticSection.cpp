#include "sim/config/SyntheticSection.hpp"

#include "models/workload/EmpiricalDistribution.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/config/TableKey.hpp"
#include "sim/keys/NamedKeys.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace acmesim {

namespace {

using Kind = EmpiricalDistribution::Kind;
using T = SyntheticTypeSpec;

// The share of a type's jobs that end in one state.
const NumberRange SHARE = number_between(0, 1);

const KeyTable<EmpiricalSpec>& gpu_table_keys()
{
  static const KeyTable<EmpiricalSpec> keys =
      table_keys(integer_between(0, 1e6), "GPUs", "GPU counts, drawn as given (0: a CPU-only job)");
  return keys;
}

const KeyTable<EmpiricalSpec>& duration_table_keys()
{
  static const KeyTable<EmpiricalSpec> keys =
      table_keys(physical::SECONDS, "s", "durations, interpolated log-linearly between them");
  return keys;
}

const KeyTable<T>& job_type_keys()
{
  static const KeyTable<T> keys({
      number_key("arrivals_per_hour", &T::arrivals_per_hour, number_between(0, 1e6), "jobs/h",
                 "the Poisson arrival rate of the type's jobs")
          .required(),
      table_key("gpus", &T::gpus, gpu_table_keys(), Kind::Discrete, "GPUs per job").required(),
      table_key("duration_s", &T::duration_s, duration_table_keys(), Kind::LogLinear, "run time per job").required(),
      // `{COMPLETED: 0.9, FAILED: 0.1}`: states left out get 0.
      numbers_by_name_key<JobState>("states", &T::state_shares, NamedNumbers::Shares, {"job state", "job states"},
                                    {SHARE, NO_UNIT, "the share of the type's jobs that end in the state"},
                                    "how the type's jobs end"),
      number_key("cpus_per_gpu", &T::cpus_per_gpu, integer_between(0, 1024), "CPUs", "CPU cores a job takes per GPU"),
      number_key("cpus_if_cpu_only", &T::cpus_if_cpu_only, integer_between(0, 65536), "CPUs",
                 "CPU cores of a CPU-only job (0 GPUs)"),
  });
  return keys;
}

const KeyTable<SyntheticSpec>& synthetic_keys()
{
  using S = SyntheticSpec;
  static const KeyTable<S> keys({
      number_key("days", &S::days, physical::DAYS, "days", "length of the arrival window"),
      number_key("users", &S::users, integer_between(1, 1e6), "users",
                 "synthetic users u0..u<users-1>, drawn uniformly"),
      maps_by_name_key<JobType>(
          "types", job_type_keys(),
          NamedMaps<S, T, JobType>{[](S& spec, JobType type) -> T& {
                                     T& added = spec.types.emplace_back();
                                     added.type = type;
                                     return added;
                                   },
                                   [](const S& spec, JobType type) -> const T* {
                                     const auto it = std::find_if(spec.types.begin(), spec.types.end(),
                                                                  [type](const T& t) { return t.type == type; });
                                     return it == spec.types.end() ? nullptr : &*it;
                                   }},
          {"job type", "job types"}, "expected at least one job type: " + enum_name_list<JobType>(),
          "the job types, each with its arrivals, tables and states")
          .required(),
  });
  return keys;
}

} // namespace

SyntheticSpec read_synthetic(ConfigChecker& checker, const ConfigNode& node, double load_scale)
{
  SyntheticSpec spec;
  synthetic_keys().read_map(checker, &node, "workload.synthetic", spec);
  // The generator holds every job in memory: refuse workloads whose expected size would not fit.
  double expected_jobs = 0;
  for (const auto& t : spec.types)
    expected_jobs += t.arrivals_per_hour * 24 * spec.days * load_scale;
  if (expected_jobs > MAX_EXPECTED_JOBS)
    checker.error(node, "workload.synthetic",
                  "expects about " + std::to_string(static_cast<long long>(expected_jobs)) +
                      " jobs (sum of arrivals_per_hour x 24 x days x workload.load_scale); at most 50,000,000 are supported");
  // Canonical order, so that reordering the file's types does not change a run.
  std::stable_sort(spec.types.begin(), spec.types.end(), [](const T& a, const T& b) { return a.type < b.type; });
  return spec;
}

Json synthetic_to_json(const SyntheticSpec& spec) { return synthetic_keys().echo(spec); }

std::vector<KeyDoc> synthetic_key_docs(const std::string& path) { return synthetic_keys().docs(path, SyntheticSpec{}); }

} // namespace acmesim
