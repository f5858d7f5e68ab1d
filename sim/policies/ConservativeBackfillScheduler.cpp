#include "sim/policies/ConservativeBackfillScheduler.hpp"

#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acmesim {

const Registration conservative_backfill(
    scheduler_registry(),
    {"conservative-backfill",
     "conservative backfilling: every queued job holds a reservation, and a later job starts early only if it "
     "delays none of them",
     easy_backfill_params()},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<ConservativeBackfillScheduler>(topology, std::move(placement),
                                                             params.integer("backfill_depth"));
    });

ConservativeBackfillScheduler::ConservativeBackfillScheduler(const Topology& topology,
                                                             std::unique_ptr<PlacementPolicy> placement,
                                                             int backfill_depth)
    : QueueScheduler(topology, std::move(placement))
    , backfill_depth_(backfill_depth)
{
}

void ConservativeBackfillScheduler::on_started(const ClusterView& view, JobId job)
{
  running_.started(job, view.now() + view.estimate_s(job));
}

void ConservativeBackfillScheduler::on_finished(const ClusterView&, JobId job)
{
  running_.ended(job);
  plan_valid_ = false;
}

Allocation ConservativeBackfillScheduler::place_now(const FreeGpuTimeline& timeline, int gpus, double duration_s,
                                                    double now)
{
  // GPUs free now but reserved for a later job before this one would end are hidden from the
  // placement policy; without such GPUs it places on the mirror itself.
  std::vector<Allocation::Part> hidden;
  for (NodeId node = 0; node < mirror().topology().node_count(); ++node) {
    const int usable = timeline.min_free(node, now, now + duration_s);
    if (usable < mirror().free_gpus(node))
      hidden.push_back({node, mirror().free_gpus(node) - usable});
  }
  if (hidden.empty())
    return placement().place(mirror(), gpus);
  ClusterState usable = mirror();
  usable.take(Allocation{hidden});
  return placement().place(usable, gpus);
}

FreeGpuTimeline ConservativeBackfillScheduler::timeline_now(double now)
{
  FreeGpuTimeline timeline(mirror(), now);
  // A job past its estimate may end at any moment: just after now.
  const double soonest = std::nextafter(now, std::numeric_limits<double>::infinity());
  const auto& ends = running_.by_end();
  ends_taken_as_next_moment_ = !ends.empty() && ends.begin()->first < soonest;
  for (const auto& [end, job] : ends)
    timeline.release(allocation_of(job), std::max(end, soonest));
  return timeline;
}

bool ConservativeBackfillScheduler::plan_stands(const std::vector<SchedulerEvent>& events, double now) const
{
  const auto& ends = running_.by_end();
  if (!plan_valid_ || ends_taken_as_next_moment_ || (!ends.empty() && ends.begin()->first <= now))
    return false;
  return std::all_of(events.begin(), events.end(),
                     [](const SchedulerEvent& e) { return e.kind == EventKind::JobSubmitted; });
}

void ConservativeBackfillScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events)
{
  const auto& queue = view.queue();
  if (plan_stands(events, view.now())) {
    // No job ended and no reserved time has come: the jobs planned keep their reservations, and
    // the new ones, at the queue's tail (ids grow with submission), are planned after them.
    if (timeline_)
      timeline_->advance_to(view.now());
    plan(view, last_planned_ ? queue.upper_bound(*last_planned_) : queue.begin());
    return;
  }
  timeline_.reset();
  reserved_ = 0;
  last_planned_.reset();
  plan_valid_ = true;
  plan(view, queue.begin());
}

void ConservativeBackfillScheduler::plan(const ClusterView& view, std::set<JobId>::const_iterator from)
{
  const double now = view.now();
  // Until a job does not fit now, no reservation lies ahead: jobs start where the placement
  // policy puts them, and the timeline (which counts them) is built only when first needed.
  for (auto it = from; it != view.queue().end() && reserved_ < backfill_depth_; ++it) {
    const JobId id = *it;
    last_planned_ = id;
    if (!timeline_) {
      if (try_start(view, id))
        continue;
      timeline_.emplace(timeline_now(now));
    }
    const Job& job = view.job(id);
    const double duration = view.estimate_s(id);
    const auto slot = timeline_->earliest(job.gpus, duration);
    if (!slot) {
      ++reserved_; // fits nowhere with the nodes in service: planned, without a reservation
      continue;
    }
    if (slot->start > now) {
      timeline_->hold(slot->allocation, slot->start, slot->start + duration);

      ++reserved_;
      continue;
    }
    Allocation allocation = place_now(*timeline_, job.gpus, duration, now);
    if (allocation.empty())
      allocation = slot->allocation;
    timeline_->hold(allocation, now, now + duration);
    start_on(view, id, std::move(allocation));
  }
}

} // namespace acmesim
