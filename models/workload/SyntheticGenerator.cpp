#include "models/workload/SyntheticGenerator.hpp"

#include "models/common/Random.hpp"
#include "models/workload/EmpiricalDistribution.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace acmesim {

namespace {

constexpr double SECONDS_PER_HOUR = 3600;
constexpr double SECONDS_PER_DAY = 86400;
constexpr int GPUS_PER_NODE = 8; // Acme nodes; only used for the informational trace_nodes

JobState draw_final_state(const std::array<double, 5>& shares, RandomEngine& rng)
{
  const double u = uniform01(rng);
  double cumulative = 0;
  std::size_t last_possible = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (shares[i] <= 0)
      continue;
    cumulative += shares[i];
    last_possible = i;
    if (u < cumulative)
      return enum_values<JobState>()[i];
  }
  // Shares summing to slightly under 1 leave a sliver of u uncovered: give it to the last state
  // that can occur rather than to one whose share is 0.
  return enum_values<JobState>()[last_possible];
}

void generate_type(const SyntheticSpec& spec, const SyntheticTypeSpec& type_spec, std::uint64_t seed,
                   std::size_t repeat, std::vector<Job>& out)
{
  std::string stream_name = "workload.synthetic." + std::string(to_string(type_spec.type));
  // A type listed twice would otherwise replay the first entry's stream and duplicate its jobs.
  if (repeat > 0)
    stream_name += "." + std::to_string(repeat);
  RandomEngine rng = make_stream(seed, stream_name);

  const EmpiricalDistribution gpus_dist(type_spec.gpus, EmpiricalDistribution::Kind::Discrete);
  const EmpiricalDistribution duration_dist(type_spec.duration_s, EmpiricalDistribution::Kind::LogLinear);
  const double mean_gap_s = SECONDS_PER_HOUR / type_spec.arrivals_per_hour;
  const double horizon_s = spec.days * SECONDS_PER_DAY;
  const std::string name_prefix = std::string(to_string(type_spec.type)) + "-";

  // Later entries of a repeated type continue the numbering so that names stay unique.
  std::size_t k = static_cast<std::size_t>(
      std::count_if(out.begin(), out.end(), [&](const Job& j) { return j.type == type_spec.type; }));
  double t = 0;
  while (true) {
    t += exponential(rng, mean_gap_s);
    if (!(t < horizon_s))
      break;
    Job job;
    job.name = name_prefix + std::to_string(k++);
    job.type = type_spec.type;
    job.submit_s = t;
    // The draw order (gpus, duration, state, user) is part of the output's definition: changing it
    // changes every synthetic workload for a given seed.
    job.gpus = static_cast<int>(std::lround(gpus_dist.sample(rng)));
    job.duration_s = duration_dist.sample(rng);
    job.final_state = draw_final_state(type_spec.state_shares, rng);
    const int users = std::max(spec.users, 1);
    const int user = std::min(static_cast<int>(std::floor(uniform01(rng) * users)), users - 1);
    job.user = "u" + std::to_string(user);
    job.cpus = job.cpu_only() ? type_spec.cpus_if_cpu_only : job.gpus * type_spec.cpus_per_gpu;
    job.trace_nodes = (job.gpus + GPUS_PER_NODE - 1) / GPUS_PER_NODE;
    out.push_back(std::move(job));
  }
}

} // namespace

Workload generate_synthetic_workload(const SyntheticSpec& spec, std::uint64_t seed)
{
  Workload workload;
  workload.source = "synthetic";
  std::array<std::size_t, enum_values<JobType>().size()> seen{};
  for (const auto& type_spec : spec.types) {
    const std::size_t repeat = seen[static_cast<std::size_t>(type_spec.type)]++;
    if (!(type_spec.arrivals_per_hour > 0))
      continue;
    generate_type(spec, type_spec, seed, repeat, workload.jobs);
  }
  normalise_workload(workload);
  return workload;
}

} // namespace acmesim
