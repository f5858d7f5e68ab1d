#include "sim/run/JobQueue.hpp"

#include <limits>

namespace acmesim {

JobQueue::JobQueue(JobTable& jobs, CpuWork& cpu_work, SchedulerInbox& inbox, int largest_fit)
    : jobs_(jobs), cpu_work_(cpu_work), inbox_(inbox), largest_fit_(largest_fit)
{
}

double JobQueue::next_arrival() const
{
  const auto& arrivals = jobs_.workload().jobs;
  return next_arrival_ < arrivals.size() ? arrivals[next_arrival_].submit_s : std::numeric_limits<double>::infinity();
}

void JobQueue::submit_due(double now)
{
  const auto& arrivals = jobs_.workload().jobs;
  for (; next_arrival_ < arrivals.size() && arrivals[next_arrival_].submit_s == now; ++next_arrival_) {
    const Job& j = arrivals[next_arrival_];
    if (j.cpu_only()) {
      ++cpu_only_jobs_;
      jobs_.started(j.id, now);
      cpu_work_.run_until(j.id, now + j.duration_s);
      continue;
    }
    if (j.gpus > largest_fit_) {
      jobs_.rejected(j.id);
      continue;
    }
    queued_.insert(j.id);
    inbox_.post_job(EventKind::JobSubmitted, j.id);
  }
}

} // namespace acmesim
