#pragma once
// Running jobs by estimated end, what backfilling schedulers reserve against: a job started at s
// is expected to end at s + duration x runtime_estimate_factor (>= 1, so estimates never fall
// short unless failures make the run longer).
#include "models/workload/Job.hpp"

#include <set>
#include <unordered_map>
#include <utility>

namespace acmesim {

class EstimatedEnds {
public:
  explicit EstimatedEnds(double runtime_estimate_factor) : factor_(runtime_estimate_factor) {}

  double estimate(const Job& job) const { return job.duration_s * factor_; }
  void started(const Job& job, double now)
  {
    const double end = now + estimate(job);
    end_of_.emplace(job.id, end);
    by_end_.emplace(end, job.id);
  }
  void ended(JobId job)
  {
    const auto it = end_of_.find(job);
    by_end_.erase({it->second, job});
    end_of_.erase(it);
  }
  // (estimated end, job), earliest first.
  const std::set<std::pair<double, JobId>>& by_end() const { return by_end_; }

private:
  double factor_;
  std::set<std::pair<double, JobId>> by_end_;
  std::unordered_map<JobId, double> end_of_;
};

} // namespace acmesim
