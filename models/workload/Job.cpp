#include "models/workload/Job.hpp"

#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace acmesim {

std::size_t hash_value(const RecordedLabels& labels)
{
  std::size_t seed = 0;
  boost::hash_combine(seed, labels.group);
  boost::hash_combine(seed, labels.queue);
  boost::hash_combine(seed, labels.partition);
  return seed;
}

const RecordedLabels* intern_labels(RecordedLabels labels)
{
  // no_tracking: values are never freed, so the address stays valid for the process.
  using Interned = boost::flyweight<RecordedLabels, boost::flyweights::no_tracking>;
  return &Interned(std::move(labels)).get();
}

const RecordedLabels& Job::recorded_labels() const
{
  static const RecordedLabels none;
  return labels ? *labels : none;
}

void normalise_workload(Workload& workload)
{
  auto& jobs = workload.jobs;
  // Traces usually come in submission order; otherwise sort (submission time, position) pairs,
  // not the jobs themselves (a Job is over a hundred bytes), then move each job once into its
  // place. Sorting the times side by side is several times faster than comparing positions through
  // the jobs, and the position breaks ties as a stable sort would.
  const auto by_submit = [](const Job& a, const Job& b) { return a.submit_s < b.submit_s; };
  if (!std::is_sorted(jobs.begin(), jobs.end(), by_submit)) {
    std::vector<std::pair<double, std::size_t>> order(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i)
      order[i] = {jobs[i].submit_s, i};
    std::sort(order.begin(), order.end());
    // Position i takes the job at order[i].second: follow each cycle of the permutation once.
    for (std::size_t start = 0; start < order.size(); ++start) {
      if (order[start].second == start)
        continue;
      Job held = std::move(jobs[start]);
      std::size_t at = start;
      while (order[at].second != start) {
        const std::size_t from = order[at].second;
        jobs[at] = std::move(jobs[from]);
        order[at].second = at;
        at = from;
      }
      jobs[at] = std::move(held);
      order[at].second = at;
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
