#include "models/evaluation/TrialPacking.hpp"

#include <algorithm>
#include <numeric>

namespace acmesim {

std::vector<std::vector<std::size_t>> longest_first(const std::vector<double>& durations, std::size_t slots)
{
  slots = std::max<std::size_t>(slots, 1);
  std::vector<std::size_t> order(durations.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Stable: equal durations keep index order, so a run is reproducible whatever the sort.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return durations[a] > durations[b]; });

  std::vector<std::vector<std::size_t>> assignment(slots);
  std::vector<double> load(slots, 0.0);
  for (const std::size_t item : order) {
    // A linear scan: slots are GPUs of a few nodes, and it gives the lowest slot on ties for free.
    std::size_t best = 0;
    for (std::size_t s = 1; s < slots; ++s)
      if (load[s] < load[best])
        best = s;
    assignment[best].push_back(item);
    load[best] += durations[item];
  }
  return assignment;
}

double packed_makespan(const std::vector<std::vector<std::size_t>>& assignment, const std::vector<double>& durations)
{
  double makespan = 0;
  for (const auto& slot : assignment) {
    double load = 0;
    for (const std::size_t item : slot)
      load += durations.at(item);
    makespan = std::max(makespan, load);
  }
  return makespan;
}

} // namespace acmesim
