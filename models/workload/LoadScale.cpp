#include "models/workload/LoadScale.hpp"

#include "models/common/Random.hpp"

#include <cmath>

namespace acmesim {

void resample_arrivals(Workload& workload, double scale, std::uint64_t seed)
{
  if (scale == 1)
    return;
  const double whole = std::floor(scale);
  const double expected = scale * static_cast<double>(workload.jobs.size());
  RandomEngine rng = make_stream(seed, "workload.load_scale");
  std::vector<Job> scaled;
  scaled.reserve(static_cast<std::size_t>(expected) + 1);
  for (Job& job : workload.jobs) {
    // One draw per job whatever the scale's fraction, so that two scales differing only in their
    // whole part keep or drop the same jobs.
    const auto copies = static_cast<std::size_t>(whole) + (uniform01(rng) < scale - whole ? 1 : 0);
    if (copies == 0)
      continue;
    scaled.push_back(std::move(job));
    const std::size_t original = scaled.size() - 1;
    for (std::size_t k = 1; k < copies; ++k) {
      Job copy = scaled[original];
      copy.name += "~" + std::to_string(k);
      scaled.push_back(std::move(copy));
    }
  }
  // Copies sit beside their original, so the order by submission time is kept.
  for (std::size_t i = 0; i < scaled.size(); ++i)
    scaled[i].id = static_cast<JobId>(i);
  workload.jobs = std::move(scaled);
}

SyntheticSpec scaled_synthetic(SyntheticSpec spec, double scale)
{
  for (auto& type : spec.types)
    type.arrivals_per_hour *= scale;
  return spec;
}

} // namespace acmesim
