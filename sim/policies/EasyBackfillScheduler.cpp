#include "sim/policies/EasyBackfillScheduler.hpp"

#include <stdexcept>

namespace acmesim {

EasyBackfillScheduler::EasyBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                             double runtime_estimate_factor, int backfill_depth)
    : QueueScheduler(topology, std::move(placement))
    , estimate_factor_(runtime_estimate_factor)
    , backfill_depth_(backfill_depth)
{
}

void EasyBackfillScheduler::on_started(const ClusterView& view, JobId job)
{
  const double end = view.now() + estimate(view.job(job));
  expected_end_.emplace(end, job);
  expected_end_of_.emplace(job, end);
}

void EasyBackfillScheduler::on_finished(JobId job)
{
  auto it = expected_end_of_.find(job);
  expected_end_.erase({it->second, job});
  expected_end_of_.erase(it);
}

void EasyBackfillScheduler::schedule(const ClusterView& view)
{
  const auto& queue = view.queue();
  auto it = queue.begin();
  while (it != queue.end() && try_start(view, *it))
    ++it;
  if (it == queue.end() || mirror().free_gpus_total() == 0)
    return;

  // Reservation for the head: release running jobs in order of estimated end until it fits.
  const Job& head = view.job(*it);
  CapacityProfile at_shadow = mirror().capacity();
  double shadow_time = view.now();
  for (const auto& [end, running] : expected_end_) {
    if (at_shadow.fits(head.gpus))
      break;
    at_shadow.give_back(allocation_of(running));
    shadow_time = end;
  }
  if (!at_shadow.fits(head.gpus))
    throw std::logic_error("job " + head.name + " cannot fit even on an empty cluster");

  int examined = 0;
  for (++it; it != queue.end() && examined < backfill_depth_; ++it, ++examined) {
    if (mirror().free_gpus_total() == 0)
      return;
    const Job& candidate = view.job(*it);
    if (!may_fit(candidate.gpus))
      continue;
    if (view.now() + estimate(candidate) <= shadow_time) {
      try_start(view, *it);
      continue;
    }
    // Runs past the shadow time: allowed only on GPUs the head does not need then.
    Allocation allocation = placement().place(mirror(), candidate.gpus);
    if (allocation.empty())
      continue;
    at_shadow.take(allocation);
    if (!at_shadow.fits(head.gpus)) {
      at_shadow.give_back(allocation);
      continue;
    }
    start_on(view, *it, std::move(allocation));
  }
}

} // namespace acmesim
