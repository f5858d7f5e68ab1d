#pragma once
// Running jobs by estimated end, what backfilling schedulers reserve against: a job started at s
// is expected to end at s + the run's estimate of its run time (ClusterView::estimate_s,
// workload.estimates). An estimate may fall short (a user's requested time, a run lengthened by
// failures): the job's estimated end is then in the past until it ends.
#include "models/workload/Job.hpp"

#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace acmesim {

class EstimatedEnds {
public:
  void started(JobId job, double end)
  {
    end_of_.emplace(job, end);
    by_end_.emplace(end, job);
  }
  void ended(JobId job)
  {
    const auto it = end_of_.find(job);
    by_end_.erase({it->second, job});
    end_of_.erase(it);
  }
  // (estimated end, job), earliest first.
  const std::set<std::pair<double, JobId>>& by_end() const { return by_end_; }
  // nullopt: not running.
  std::optional<double> end_of(JobId job) const
  {
    const auto it = end_of_.find(job);
    return it == end_of_.end() ? std::nullopt : std::optional<double>(it->second);
  }

private:
  std::set<std::pair<double, JobId>> by_end_;
  std::unordered_map<JobId, double> end_of_;
};

} // namespace acmesim
