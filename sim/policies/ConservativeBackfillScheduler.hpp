#pragma once
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/QueueScheduler.hpp"

#include <unordered_map>

namespace acmesim {

// Conservative backfilling (Mu'alem & Feitelson 2001): every queued job, in submission order,
// gets a reservation at the earliest time it fits for its whole estimated run, given the running
// jobs' estimated ends and the reservations of the jobs before it; a job whose reservation is now
// starts. So no job ever delays one queued before it, where EASY protects only the first.
//
// Reservations are worked out anew at every pass, so a job ending before its estimate moves the
// later ones forward. Estimates are the real duration x runtime_estimate_factor, as for EASY; a
// job running past its estimate (failures make runs longer) is taken to end at any moment. Only
// the first backfill_depth queued jobs get a reservation in a pass; the others wait for a later
// one. A job that starts now takes the nodes the placement policy picks among those free for its
// whole estimated run; a reservation in the future is on the tightest node (one-node jobs) or the
// lowest-numbered wholly free nodes.
class ConservativeBackfillScheduler final : public QueueScheduler {
public:
  ConservativeBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                double runtime_estimate_factor, int backfill_depth);

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;

private:
  double estimate(const Job& job) const { return job.duration_s * estimate_factor_; }
  // Free GPUs from now on: the mirror's, and those running jobs give back at their estimated ends.
  FreeGpuTimeline timeline_now(double now) const;
  // The nodes to start `gpus` on now, for `duration_s`, without taking GPUs reserved in that time.
  Allocation place_now(const FreeGpuTimeline& timeline, int gpus, double duration_s, double now);

  double estimate_factor_;
  int backfill_depth_;
  std::unordered_map<JobId, double> expected_end_; // running jobs it started
};

} // namespace acmesim
