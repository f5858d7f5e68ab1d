#include "sim/policies/ConservativeBackfillScheduler.hpp"

#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/Registries.hpp"

#include <cmath>
#include <limits>
#include <optional>

namespace acmesim {

const Registration conservative_backfill(
    scheduler_registry(),
    {"conservative-backfill",
     "conservative backfilling: every queued job holds a reservation, and a later job starts early only if it "
     "delays none of them",
     easy_backfill_params()},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<ConservativeBackfillScheduler>(topology, std::move(placement),
                                                             params.number("runtime_estimate_factor"),
                                                             params.integer("backfill_depth"));
    });

ConservativeBackfillScheduler::ConservativeBackfillScheduler(const Topology& topology,
                                                             std::unique_ptr<PlacementPolicy> placement,
                                                             double runtime_estimate_factor, int backfill_depth)
    : QueueScheduler(topology, std::move(placement))
    , estimate_factor_(runtime_estimate_factor)
    , backfill_depth_(backfill_depth)
{
}

void ConservativeBackfillScheduler::on_started(const ClusterView& view, JobId job)
{
  expected_end_.emplace(job, view.now() + estimate(view.job(job)));
}

void ConservativeBackfillScheduler::on_finished(const ClusterView&, JobId job) { expected_end_.erase(job); }

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

FreeGpuTimeline ConservativeBackfillScheduler::timeline_now(double now) const
{
  FreeGpuTimeline timeline(mirror(), now);
  // A job past its estimate may end at any moment: just after now.
  const double soonest = std::nextafter(now, std::numeric_limits<double>::infinity());
  for (const auto& [job, end] : expected_end_)
    timeline.release(allocation_of(job), std::max(end, soonest));
  return timeline;
}

void ConservativeBackfillScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  const double now = view.now();
  // Until a job does not fit now, no reservation lies ahead: jobs start where the placement
  // policy puts them, and the timeline (which counts them) is built only when first needed.
  std::optional<FreeGpuTimeline> timeline;
  int examined = 0;
  for (const JobId id : view.queue()) {
    if (examined++ >= backfill_depth_)
      return;
    if (!timeline) {
      if (try_start(view, id))
        continue;
      timeline.emplace(timeline_now(now));
    }
    const Job& job = view.job(id);
    const double duration = estimate(job);
    const auto slot = timeline->earliest(job.gpus, duration);
    if (!slot)
      continue; // fits nowhere with the nodes in service: no reservation
    if (slot->start > now) {
      timeline->hold(slot->allocation, slot->start, slot->start + duration);
      continue;
    }
    Allocation allocation = place_now(*timeline, job.gpus, duration, now);
    if (allocation.empty())
      allocation = slot->allocation;
    timeline->hold(allocation, now, now + duration);
    start_on(view, id, std::move(allocation));
  }
}

} // namespace acmesim
