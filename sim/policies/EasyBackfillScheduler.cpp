#include "sim/policies/EasyBackfillScheduler.hpp"

#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace acmesim {

std::vector<ParamSpec> easy_backfill_params()
{
  return {{"backfill_depth", "queued jobs examined for backfilling per scheduling pass", 1000, 1, 1e9, true}};
}

const Registration easy_backfill(
    scheduler_registry(),
    {"easy-backfill",
     "EASY backfilling: the queue head holds a reservation, later jobs start early only if they do not delay it",
     easy_backfill_params()},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<EasyBackfillScheduler>(topology, std::move(placement), params.integer("backfill_depth"));
    });

EasyBackfillScheduler::EasyBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                             int backfill_depth)
    : QueueScheduler(topology, std::move(placement))
    , backfill_depth_(backfill_depth)
{
}

void EasyBackfillScheduler::on_started(const ClusterView& view, JobId job)
{
  running_.started(job, view.now() + view.estimate_s(job));
}

void EasyBackfillScheduler::on_finished(const ClusterView&, JobId job)
{
  reservation_.reset();
  unchanged_since_idle_pass_ = false;
  running_.ended(job);
}

void EasyBackfillScheduler::on_cluster_changed()
{
  reservation_.reset();
  unchanged_since_idle_pass_ = false;
}

EasyBackfillScheduler::Reservation& EasyBackfillScheduler::reservation_for(const ClusterView& view, JobId head_id)
{
  if (reservation_ && reservation_->head == head_id)
    return *reservation_;
  // Release running jobs in order of estimated end until the head fits.
  const Job& head = view.job(head_id);
  Reservation r{head_id, view.now(), mirror().capacity()};
  for (const auto& [end, running] : running_.by_end()) {
    if (r.at_shadow.fits(head.gpus))
      break;
    r.at_shadow.give_back(allocation_of(running));
    r.shadow_time = end;
  }
  // With nodes out of service the head may not fit even once every running job has ended: it
  // then has no reservation until a node comes back (NodeUp resets this), and jobs behind it
  // may use what is free.
  if (!r.at_shadow.fits(head.gpus))
    r.shadow_time = std::numeric_limits<double>::infinity();
  reservation_.emplace(std::move(r));
  return *reservation_;
}

void EasyBackfillScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events)
{
  const auto& queue = view.queue();
  auto it = queue.begin();
  if (unchanged_since_idle_pass_) {
    // The previous pass started nothing and nothing has ended since: every job it examined
    // would be refused again (time only moves short jobs toward long), so only the jobs
    // submitted since, at the tail of the queue, need a look, and only if they fall within
    // backfill_depth of the head. This keeps evaluation bursts on a full cluster cheap.
    const std::size_t window_end = static_cast<std::size_t>(backfill_depth_) + 1; // head + depth
    const std::size_t first_new = queue.size() - events.size(); // submissions only, all at the tail
    if (first_new >= window_end)
      return;
    std::advance(it, static_cast<std::ptrdiff_t>(first_new));
    backfill(view, *queue.begin(), it, static_cast<int>(window_end - first_new));
    return;
  }
  while (it != queue.end() && try_start(view, *it))
    ++it;
  if (it == queue.end() || mirror().free_gpus_total() == 0)
    return;
  const JobId head = *it;
  backfill(view, head, ++it, backfill_depth_);
}

void EasyBackfillScheduler::backfill(const ClusterView& view, JobId head_id, std::set<JobId>::const_iterator it,
                                     int depth)
{
  BackfillPass pass = backfill_pass(view, head_id);
  const auto end = view.queue().end();
  for (int examined = 0; it != end && examined < depth; ++examined)
    if (!pass.consider(*it++))
      break;
  unchanged_since_idle_pass_ = !pass.started();
}

EasyBackfillScheduler::BackfillPass::BackfillPass(EasyBackfillScheduler& s, const ClusterView& view, JobId head)
    : s_(s)
    , view_(view)
    , head_(view.job(head))
    , reservation_(s.reservation_for(view, head))
{
}

bool EasyBackfillScheduler::BackfillPass::consider(JobId id)
{
  if (s_.mirror().free_gpus_total() == 0)
    return false;
  const Job& candidate = view_.job(id);
  if (!s_.may_fit(candidate.gpus))
    return true;
  if (view_.now() + view_.estimate_s(id) <= reservation_.shadow_time) {
    if (s_.try_start(view_, id)) {
      refused_long_.clear();
      started_ = true;
    }
    return true;
  }
  if (std::find(refused_long_.begin(), refused_long_.end(), candidate.gpus) != refused_long_.end())
    return true;
  // Runs past the shadow time: allowed only on GPUs the head does not need then.
  Allocation allocation = s_.placement().place(s_.mirror(), candidate.gpus);
  if (allocation.empty())
    return true;
  reservation_.at_shadow.take(allocation);
  if (!reservation_.at_shadow.fits(head_.gpus)) {
    reservation_.at_shadow.give_back(allocation);
    refused_long_.push_back(candidate.gpus);
    return true;
  }
  s_.start_on(view_, id, std::move(allocation));
  refused_long_.clear();
  started_ = true;
  return true;
}

} // namespace acmesim
