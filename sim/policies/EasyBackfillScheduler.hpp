#pragma once
#include "sim/policies/EstimatedEnds.hpp"
#include "sim/policies/QueueScheduler.hpp"
#include "sim/policy_api/PolicySpec.hpp"

#include <optional>
#include <set>
#include <utility>

namespace acmesim {

// The parameters of EASY's backfill scan (backfill_depth), declared once for every scheduler
// built on it.
std::vector<ParamSpec> easy_backfill_params();

// EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001). Jobs start in queue order while
// they fit. The first job that does not fit gets a reservation at the earliest time enough
// GPUs free up, computed from the runtime estimates of running jobs (the shadow time). A later
// job may start now ("backfill") if it is estimated to end by the shadow time, or if the GPUs
// it takes are not needed by the reserved job at the shadow time.
//
// Runtime estimates are the run's (ClusterView::estimate_s, workload.estimates). A job may run past
// its estimate (requested times fall short, failures lengthen runs): its estimated end is then in
// the past, so the head's shadow time is too, and no candidate counts as short; only GPUs the head
// does not need are lent, as if the overrunning job were to end at any moment.
// Only the first backfill_depth queued jobs behind the head are examined per pass, which
// bounds the cost of a pass when evaluation bursts make the queue long.
// A candidate is tried on the nodes the placement policy picks for it now; if those nodes
// would delay the reservation the candidate is skipped, even if other nodes would not.
// The queue order is submission order; a subclass may offer jobs in another order (priority:
// MultifactorScheduler) to backfill_pass().
class EasyBackfillScheduler : public QueueScheduler {
public:
  EasyBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                        int backfill_depth);

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;
  void on_cluster_changed() override;

  // The head's reservation: when it can start and the capacity at that time minus what
  // long backfilled jobs will still hold. It stays valid until a job ends (an overrun leaves
  // the jobs released, and so the capacity, as they were) or the head changes; caching it keeps
  // a pass cheap when only submissions arrive, as in evaluation bursts.
  struct Reservation {
    JobId head;
    double shadow_time;
    CapacityProfile at_shadow;
  };

  // The backfill scan of one pass behind `head`, the first job in queue order that did not fit:
  // candidates are offered one by one, in queue order. consider() starts the candidate if EASY
  // allows it and returns false once nothing more can start (no GPU is free).
  class BackfillPass {
  public:
    bool consider(JobId candidate);
    bool started() const { return started_; }

  private:
    friend class EasyBackfillScheduler;
    BackfillPass(EasyBackfillScheduler& s, const ClusterView& view, JobId head);
    EasyBackfillScheduler& s_;
    const ClusterView& view_;
    const Job& head_;
    Reservation& reservation_; // the head's; long candidates take GPUs from its capacity
    // GPU counts of long candidates refused since the last start: placement is a function of
    // the cluster state, so until something starts, the same request would be refused again.
    std::vector<int> refused_long_;
    bool started_ = false;
  };
  BackfillPass backfill_pass(const ClusterView& view, JobId head) { return BackfillPass(*this, view, head); }
  int backfill_depth() const { return backfill_depth_; }

private:
  Reservation& reservation_for(const ClusterView& view, JobId head);
  // Examines up to `depth` queued jobs from `first` for starting before the head's reservation.
  void backfill(const ClusterView& view, JobId head, std::set<JobId>::const_iterator first, int depth);

  EstimatedEnds running_;
  int backfill_depth_;
  std::optional<Reservation> reservation_;
  // True while nothing has started or ended since a pass that started nothing: the cluster,
  // the head and its reservation are then as that pass left them, so only jobs submitted
  // since can start (see schedule()).
  bool unchanged_since_idle_pass_ = false;
};

} // namespace acmesim
