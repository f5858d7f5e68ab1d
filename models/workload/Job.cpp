#include "models/workload/Job.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace acmesim {

void normalise_workload(Workload& workload)
{
  auto& jobs = workload.jobs;
  // Traces usually come in submission order; otherwise sort positions, not the jobs themselves
  // (a Job is over a hundred bytes, a position eight), then move each job once into its place.
  const auto by_submit = [](const Job& a, const Job& b) { return a.submit_s < b.submit_s; };
  if (!std::is_sorted(jobs.begin(), jobs.end(), by_submit)) {
    std::vector<std::size_t> order(jobs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return jobs[a].submit_s < jobs[b].submit_s; });
    // Position i takes the job at order[i]: follow each cycle of the permutation once.
    for (std::size_t start = 0; start < order.size(); ++start) {
      if (order[start] == start)
        continue;
      Job held = std::move(jobs[start]);
      std::size_t at = start;
      while (order[at] != start) {
        const std::size_t from = order[at];
        jobs[at] = std::move(jobs[from]);
        order[at] = at;
        at = from;
      }
      jobs[at] = std::move(held);
      order[at] = at;
    }
  }
  const double origin = jobs.empty() ? 0.0 : jobs.front().submit_s;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = static_cast<JobId>(i);
    jobs[i].submit_s -= origin;
  }
  for (double& t : workload.eval_campaigns_s)
    t -= origin;
}

} // namespace acmesim
