#pragma once
#include "sim/policies/EstimatedEnds.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/QueueScheduler.hpp"

#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace acmesim {

// Conservative backfilling (Mu'alem & Feitelson 2001): every queued job, in submission order,
// gets a reservation at the earliest time it fits for its whole estimated run, given the running
// jobs' estimated ends and the reservations of the jobs before it; a job whose reservation is now
// starts. So no job ever delays one queued before it, where EASY protects only the first.
//
// Estimates are the run's (workload.estimates), as for EASY; a job running past its estimate (a
// requested time that fell short, a run lengthened by failures) is taken to end at any moment.
// Reservations are worked out anew whenever a job ends or is queued again or the cluster changes,
// so a job ending before its estimate moves the later ones forward; when only submissions
// happened since the last pass, the reservations stand (no reserved time can have come) and only
// the new jobs are planned, after them. At most backfill_depth queued jobs hold a reservation; the
// others wait for a new plan. A job that starts now takes the nodes the placement policy picks among those free for
// its whole estimated run; a reservation in the future is on the tightest node (one-node jobs) or
// the lowest-numbered wholly free nodes.
class ConservativeBackfillScheduler final : public QueueScheduler {
public:
  ConservativeBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                int backfill_depth);

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;
  void on_cluster_changed() override { plan_valid_ = false; }

private:
  // Whether the reservations of the last pass still stand: only submissions since, and no
  // running job past its estimate (its end was taken to be the moment after that pass).
  bool plan_stands(const std::vector<SchedulerEvent>& events, double now) const;
  // Plans the queued jobs from `from` on, in order: each starts now or gets its reservation.
  void plan(const ClusterView& view, std::set<JobId>::const_iterator from);
  // Free GPUs from now on: the mirror's, and those running jobs give back at their estimated ends.
  FreeGpuTimeline timeline_now(double now);
  // The nodes to start `gpus` on now, for `duration_s`, without taking GPUs reserved in that time.
  Allocation place_now(const FreeGpuTimeline& timeline, int gpus, double duration_s, double now);

  int backfill_depth_;
  EstimatedEnds running_; // the jobs it started
  // The plan: reservations on the timeline (none built while every job planned has started).
  std::optional<FreeGpuTimeline> timeline_;
  bool plan_valid_ = false;
  bool ends_taken_as_next_moment_ = false; // the timeline holds ends of jobs past their estimate
  int reserved_ = 0;                       // queued jobs planned that did not start
  std::optional<JobId> last_planned_;
};

} // namespace acmesim
