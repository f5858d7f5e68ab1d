#include "sim/run/JobQueue.hpp"

#include <algorithm>
#include <limits>

namespace acmesim {

JobQueue::JobQueue(JobTable& jobs, CpuWork& cpu_work, SchedulerInbox& inbox, std::vector<int> largest_fits,
                   std::vector<double> start_overhead_s)
    : jobs_(jobs)
    , cpu_work_(cpu_work)
    , inbox_(inbox)
    , largest_fits_(std::move(largest_fits))
    , start_overhead_s_(std::move(start_overhead_s))
{
}

bool JobQueue::fits_when_empty(const Job& job) const
{
  if (job.pod != ANY_POD)
    return job.gpus <= largest_fits_.at(static_cast<std::size_t>(job.pod));
  return std::any_of(largest_fits_.begin(), largest_fits_.end(), [&](int largest) { return job.gpus <= largest; });
}

double JobQueue::next_arrival() const
{
  const auto& arrivals = jobs_.workload().jobs;
  const double next = next_arrival_ < arrivals.size() ? arrivals[next_arrival_].submit_s
                                                      : std::numeric_limits<double>::infinity();
  return held_back_.empty() ? next : std::min(next, held_back_.top().first);
}

void JobQueue::submit_due(double now)
{
  const auto& arrivals = jobs_.workload().jobs;
  for (; next_arrival_ < arrivals.size() && arrivals[next_arrival_].submit_s == now; ++next_arrival_) {
    const Job& j = arrivals[next_arrival_];
    if (j.cpu_only()) {
      ++cpu_only_jobs_;
      jobs_.started(j.id, now);
      cpu_work_.start_cpu_only(j, now);
      continue;
    }
    if (!fits_when_empty(j)) {
      jobs_.rejected(j.id);
      continue;
    }
    if (const double overhead = start_overhead_s_.empty() ? 0.0 : start_overhead_s_[j.id]; overhead > 0) {
      held_back_.emplace(now + overhead, j.id);
      continue;
    }
    queued_.insert(j.id);
    inbox_.post_job(EventKind::JobSubmitted, j.id);
  }
  for (; !held_back_.empty() && held_back_.top().first <= now; held_back_.pop()) {
    queued_.insert(held_back_.top().second);
    inbox_.post_job(EventKind::JobSubmitted, held_back_.top().second);
  }
}

} // namespace acmesim
