#include "models/workload/Job.hpp"

#include <algorithm>

namespace acmesim {

void normalise_workload(Workload& workload)
{
  auto& jobs = workload.jobs;
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.submit_s < b.submit_s; });
  const double origin = jobs.empty() ? 0.0 : jobs.front().submit_s;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = static_cast<JobId>(i);
    jobs[i].submit_s -= origin;
  }
  for (double& t : workload.eval_campaigns_s)
    t -= origin;
}

} // namespace acmesim
