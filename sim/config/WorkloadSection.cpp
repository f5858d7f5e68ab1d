#include "sim/config/WorkloadSection.hpp"

#include "models/workload/EmpiricalDistribution.hpp"
#include "models/workload/TraceFormat.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace acmesim {

namespace {

// Longer generated workloads are a unit error (hours for days, say), not a plan.
constexpr double TEN_YEARS_DAYS = 3650;

namespace fs = std::filesystem;

using Kind = EmpiricalDistribution::Kind;

// About 5 GB of job records: far beyond the 880,740 jobs of the six-month Acme trace.
constexpr double MAX_EXPECTED_JOBS = 5e7;

// A list of numbers; false if it is not one (everything wrong reported).
bool read_number_list(ConfigChecker& checker, const ConfigNode* node, const std::string& key, const NumberRange& range,
                      std::vector<double>& out)
{
  if (!node || !checker.expect_list(*node, key))
    return false;
  bool ok = true;
  for (std::size_t i = 0; i < node->items.size(); ++i) {
    const auto v = checker.number(node->items[i], join_key(key, std::to_string(i)), range);
    if (v)
      out.push_back(*v);
    ok = ok && v.has_value();
  }
  return ok;
}

EmpiricalSpec read_table(ConfigChecker& checker, const ConfigNode& node, const std::string& key, Kind kind,
                         const NumberRange& value_range)
{
  EmpiricalSpec spec;
  MapReader m(checker, &node, key, {"values", "cdf"});
  if (!m.ok())
    return spec;
  m.require("values");
  m.require("cdf");
  const bool values_ok = read_number_list(checker, m.get("values"), m.key_of("values"), value_range, spec.values);
  const bool cdf_ok = read_number_list(checker, m.get("cdf"), m.key_of("cdf"), any_number(), spec.cdf);
  if (values_ok && cdf_ok)
    if (const std::string problem = check_empirical_spec(spec, kind); !problem.empty())
      checker.error(node, key, problem);
  return spec;
}

std::optional<std::array<double, 5>> read_states(ConfigChecker& checker, const ConfigNode& node, const std::string& key)
{
  MapReader m(checker, &node, key); // keys are job states, checked below
  if (!m.ok())
    return std::nullopt;
  std::array<double, 5> shares{};
  bool ok = true;
  for (const auto& entry : node.entries) {
    const std::string state_key = join_key(key, entry.key);
    const auto state = parse_enum<JobState>(entry.key);
    if (!state) {
      checker.error(entry.key_where, state_key, "", "unknown job state; valid states: " + enum_name_list<JobState>());
      ok = false;
      continue;
    }
    const auto share = checker.number(entry.value, state_key, NumberRange{0, false, 1});
    if (share)
      shares[static_cast<std::size_t>(*state)] = *share;
    ok = ok && share.has_value();
  }
  if (!ok)
    return std::nullopt;
  const double sum = std::accumulate(shares.begin(), shares.end(), 0.0);
  if (std::abs(sum - 1) > 1e-6) {
    checker.error(node, key, "state shares must sum to 1; they sum to " + format_number(sum));
    return std::nullopt;
  }
  return shares;
}

SyntheticTypeSpec read_job_type(ConfigChecker& checker, const ConfigNode& node, const std::string& key, JobType type)
{
  SyntheticTypeSpec spec;
  spec.type = type;
  MapReader m(checker, &node, key,
              {"arrivals_per_hour", "gpus", "duration_s", "states", "cpus_per_gpu", "cpus_if_cpu_only"});
  if (!m.ok())
    return spec;
  m.require("arrivals_per_hour");
  m.read("arrivals_per_hour", spec.arrivals_per_hour, number_between(0, 1e6));
  if (m.require("gpus")) // a GPU count; 0 is a CPU-only job
    spec.gpus = read_table(checker, *m.get("gpus"), m.key_of("gpus"), Kind::Discrete, integer_between(0, 1e6));
  if (m.require("duration_s"))
    spec.duration_s = read_table(checker, *m.get("duration_s"), m.key_of("duration_s"), Kind::LogLinear, positive());
  if (const ConfigNode* states = m.get("states"))
    if (const auto shares = read_states(checker, *states, m.key_of("states")))
      spec.state_shares = *shares;
  m.read("cpus_per_gpu", spec.cpus_per_gpu, integer_between(0, 1024));
  m.read("cpus_if_cpu_only", spec.cpus_if_cpu_only, integer_between(0, 65536));
  return spec;
}

SyntheticSpec read_synthetic(ConfigChecker& checker, const ConfigNode& node)
{
  SyntheticSpec spec;
  MapReader m(checker, &node, "workload.synthetic", {"days", "users", "types"});
  m.read("days", spec.days, positive_up_to(TEN_YEARS_DAYS));
  m.read("users", spec.users, integer_between(1, 1e6));
  if (!m.require("types"))
    return spec;
  const ConfigNode& types = *m.get("types");
  const std::string key = m.key_of("types");
  if (!checker.expect_map(types, key))
    return spec;
  if (types.entries.empty())
    checker.error(types, key, "expected at least one job type: " + enum_name_list<JobType>());
  for (const auto& entry : types.entries) {
    const auto type = parse_enum<JobType>(entry.key);
    if (!type) {
      checker.error(entry.key_where, join_key(key, entry.key), "",
                    "unknown job type; valid types: " + enum_name_list<JobType>());
      continue;
    }
    spec.types.push_back(read_job_type(checker, entry.value, join_key(key, entry.key), *type));
  }
  // The generator holds every job in memory: refuse workloads whose expected size would not fit.
  double expected_jobs = 0;
  for (const auto& t : spec.types)
    expected_jobs += t.arrivals_per_hour * 24 * spec.days;
  if (expected_jobs > MAX_EXPECTED_JOBS)
    checker.error(node, "workload.synthetic",
                  "expects about " + std::to_string(static_cast<long long>(expected_jobs)) +
                      " jobs (sum of arrivals_per_hour x 24 x days); at most 50,000,000 are supported");
  // Canonical order, so that reordering the file's types does not change a run.
  std::stable_sort(spec.types.begin(), spec.types.end(),
                   [](const SyntheticTypeSpec& a, const SyntheticTypeSpec& b) { return a.type < b.type; });
  return spec;
}

// `synthetic: {preset: seren, days: 30, ...}`: the generator calibrated to Acme's published
// distributions; the per-type tables come from the preset, the rest are the generator's knobs.
AcmePresetSpec read_acme_preset(ConfigChecker& checker, const ConfigNode& node)
{
  AcmePresetSpec spec;
  AcmeGeneratorSpec& g = spec.generator;
  MapReader m(checker, &node, "workload.synthetic",
              {"preset", "days", "users", "gpu_jobs_per_day", "cpu_job_share", "diurnal_amplitude", "peak_hour",
               "weekend_factor", "eval_batch_mean", "retry_probability", "retry_delay_mean_s"});
  m.read_choice("preset", spec.preset, {"seren", "kalos", "acme"});
  m.read("days", g.days, positive_up_to(TEN_YEARS_DAYS));
  m.read("users", g.users, integer_between(1, 1e6));
  m.read("gpu_jobs_per_day", g.gpu_jobs_per_day, number_between(0, 1e6));
  // The CPU-only job count is derived from the GPU one: gpu x share / (1 - share).
  m.read("cpu_job_share", g.cpu_job_share, number_between(0, 0.9));
  m.read("diurnal_amplitude", g.diurnal_amplitude, number_between(0, 1));
  m.read("peak_hour", g.peak_hour, number_between(0, 24));
  m.read("weekend_factor", g.weekend_factor, number_between(0, 10));
  m.read("eval_batch_mean", g.eval_batch_mean, number_between(1, 1e4));
  m.read("retry_probability", g.retry_probability, number_between(0, 1));
  m.read("retry_delay_mean_s", g.retry_delay_mean_s, number_between(0, 1e7));
  // Zero means "the published rate"; the bound on memory uses the largest published one
  // (Seren: about 3,600 GPU jobs a day, plus CPU jobs).
  const double per_day = g.gpu_jobs_per_day > 0 ? g.gpu_jobs_per_day : 3608;
  const double cpu_share = g.cpu_job_share >= 0 ? g.cpu_job_share : 0.7; // published: Seren 0.36, Kalos 0.68
  if (per_day * g.days / (1 - cpu_share) > MAX_EXPECTED_JOBS)
    checker.error(node, "workload.synthetic",
                  "expects about " + std::to_string(static_cast<long long>(per_day * g.days)) +
                      " GPU jobs and more CPU jobs; at most 50,000,000 jobs are supported");
  return spec;
}

TraceSpec read_trace(MapReader& m, const std::string& base_dir)
{
  TraceSpec spec;
  std::string written;
  if (m.read("trace", written)) {
    spec.as_written = written;
    const fs::path path(written);
    spec.path = (path.is_absolute() ? path : fs::path(base_dir) / path).lexically_normal().string();
    std::error_code ec;
    const ConfigNode& node = *m.get("trace");
    if (!fs::exists(spec.path, ec))
      m.checker().error(node, "workload.trace",
                        "trace file not found: " + spec.path + " (a relative path starts at the scenario's directory)");
    else if (fs::is_directory(spec.path, ec) || !std::ifstream(spec.path).good())
      m.checker().error(node, "workload.trace", "trace file cannot be read: " + spec.path);
  }
  // The format is named, or told by the file name (.swf, Philly's cluster_job_log, ...).
  if (!m.read("format", spec.format) && !m.get("format") && !written.empty()) {
    if (const auto inferred = format_from_path(written))
      spec.format = *inferred;
    else
      m.checker().error(*m.get("trace"), "workload.trace",
                        "cannot tell the trace format from the file name; set workload.format to one of " +
                            enum_name_list<TraceFormat>());
  }
  m.read("on_bad_row", spec.on_bad_row);
  return spec;
}

} // namespace

WorkloadSpec read_workload(ConfigChecker& checker, const ConfigNode& node, const std::string& base_dir)
{
  WorkloadSpec spec;
  MapReader m(checker, &node, "workload", {"trace", "format", "on_bad_row", "synthetic"});
  if (!m.ok())
    return spec;
  const ConfigNode* trace = m.get("trace");
  const ConfigNode* synthetic = m.get("synthetic");
  if (trace && synthetic)
    checker.error(node.where, "workload", "", "set exactly one of workload.trace and workload.synthetic, not both");
  if (!trace && !synthetic)
    checker.error(node.where, "workload", "",
                  "expected workload.trace (a job trace file) or workload.synthetic (generator settings)");
  if (trace)
    spec.trace = read_trace(m, base_dir);
  else if (synthetic) // with neither, the message above says it all
    for (const char* k : {"format", "on_bad_row"})
      if (const ConfigNode* n = m.get(k))
        checker.error(*n, m.key_of(k), "applies only to a trace workload (workload.trace)");
  if (synthetic && synthetic->is_map() && synthetic->find("preset"))
    spec.acme_preset = read_acme_preset(checker, *synthetic);
  else if (synthetic)
    spec.synthetic = read_synthetic(checker, *synthetic);
  return spec;
}

} // namespace acmesim
