#pragma once
#include "sim/policies/EstimatedEnds.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/QueueScheduler.hpp"

#include <map>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>
#include <vector>

namespace acmesim {

// Conservative backfilling (Mu'alem & Feitelson 2001): every queued job, in queue order, gets a
// reservation at the earliest time it fits for its whole estimated run, given the running jobs'
// estimated ends and the reservations of the jobs before it; a job whose reservation is now
// starts. So no job ever delays one queued before it, where EASY protects only the first.
//
// Estimates are the run's (workload.estimates), as for EASY; a job running past its estimate (a
// requested time that fell short, a run lengthened by failures) is taken to end at any moment.
// A reservation stands while what it was planned on holds: jobs that end when their estimate
// said, and submissions, leave the plan as it is. A reservation whose time comes then starts on
// the nodes it holds, and the jobs planned after it keep theirs, so a job starts when its first
// reservation said unless an estimate was wrong (the guarantee conservative backfilling is for).
// Reservations are worked out anew when a job ends before or after its estimate, a job is queued
// again or the cluster changes, so a job ending early moves the later ones forward. The jobs that
// entered the queue since a plan was made are planned after every job that was in it, in the
// order they came (a job its start overhead held back may come after jobs it precedes in the
// queue). At most backfill_depth queued jobs hold a reservation; the others wait until one of
// those starts or a new plan is made. A job that starts as it is planned takes the nodes the
// placement policy picks among those free for its whole estimated run; a reservation in the
// future is on the tightest node (one-node jobs) or the lowest-numbered wholly free nodes.
//
// A pass plans only as far as a decision needs: once no queued job can start now, planning the
// others would start none of them. The plan is taken up where it stopped by the next pass that
// keeps it, which gives the jobs the reservations they would have had (nothing the plan holds
// changed in between, and none of them could start then). So a pass costs what it starts, not
// the queue, on an overloaded cluster. The timeline is kept from plan to plan, the last plan's
// reservations taken back, unless they held more nodes than the cluster has, a node counted once
// per reservation on it (then building it anew is cheaper); and its questions about the future
// are answered from indexes of free stretches (FreeGpuTimeline), not by reading every node.
class ConservativeBackfillScheduler final : public QueueScheduler {
public:
  // How far a pass plans: as far as a decision needs, or every queued job up to backfill_depth
  // on a timeline built anew for each plan (the same decisions, at the cost of the whole plan and
  // the whole cluster: for tests that show it).
  enum class Reach { AsNeeded, Whole };
  ConservativeBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                int backfill_depth, Reach reach = Reach::AsNeeded);

  // When the plan has a queued job start, if it holds a reservation (what `squeue --start` tells a
  // Slurm user).
  std::optional<double> reserved_start(JobId job) const;

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;
  void on_queued(const ClusterView& view, JobId job) override;
  void on_cluster_changed() override
  {
    plan_valid_ = false;
    timeline_.reset(); // built anew from the cluster as it now is
  }

private:
  // Whether the reservations of the last pass still stand: only submissions and jobs that ended
  // at their estimated end since, and no running job at or past its estimate (its end was taken
  // to be the moment after that pass).
  bool plan_stands(const std::vector<SchedulerEvent>& events, double now) const;
  // Starts the jobs whose reservations have come, on the nodes they hold, in the plan's order;
  // false, doing nothing, if one of them cannot (the plan is then made anew).
  bool start_due(const ClusterView& view);
  // Plans queued jobs from where the plan stopped: each starts now or gets its reservation.
  void plan(const ClusterView& view);
  // The next job to plan (and marks it planned): the queue as the plan was made, in its order,
  // then the jobs that entered it since, in the order they came.
  std::optional<JobId> next_to_plan(const ClusterView& view);
  // Whether some queued job may start now, given the plan so far.
  bool any_queued_may_start() const;
  void index_queue(const ClusterView& view);
  std::size_t queued_indexed() const; // jobs in queued_estimates_: the queue's size when in step
  // The timeline built anew from the cluster, the running jobs and the plan's reservations, as
  // Reach::Whole does for every pass (the reference the kept timeline is tested against).
  void rebuild_timeline(double now, bool with_reservations);
  // Brings the timeline to `now` for a new plan: free GPUs from now on, the mirror's and those
  // running jobs give back at their estimated ends, without reservations. The timeline is kept
  // from plan to plan: the last plan's reservations are taken back and the running jobs' changes
  // since are made, so a plan costs what changed, not the cluster.
  void timeline_now(double now);
  // When a running job is taken to give its GPUs back: at its estimated end, or, past it, the
  // moment after now.
  static double release_time(double estimated_end, double now);
  // Notes that the timeline holds `job`, running, until release_time(estimated_end, now).
  const Allocation& track_running(JobId job, double estimated_end, double now);
  // The nodes to start `gpus` on now, for `duration_s`, without taking GPUs reserved in that time.
  Allocation place_now(const FreeGpuTimeline& timeline, int gpus, double duration_s, double now);

  int backfill_depth_;
  Reach reach_;
  EstimatedEnds running_; // the jobs it started
  // The plan: reservations on the timeline (not brought up to date while every job planned has
  // started).
  std::optional<FreeGpuTimeline> timeline_;
  bool timeline_current_ = false; // brought to this plan
  struct Held {
    JobId job;
    Allocation allocation;
    double from, until;
  };
  std::vector<Held> reservations_; // the plan's, to take back
  struct Released {
    Allocation allocation;
    double at;
  };
  std::unordered_map<JobId, Released> running_on_timeline_; // when the timeline has them give back
  bool plan_valid_ = false;
  bool ends_taken_as_next_moment_ = false; // the timeline holds ends of jobs past their estimate
  int reserved_ = 0;                       // queued jobs planned that did not start
  // How far the plan reached: through this job of the queue as it was made, then these many of
  // the jobs that entered the queue since (`arrivals_`, in order; `arrived_`, to skip them).
  std::optional<JobId> planned_through_;
  std::vector<JobId> arrivals_;
  std::unordered_set<JobId> arrived_;
  std::size_t arrivals_planned_ = 0;
  // The queued jobs' estimates by GPU count: whether any can start now, at a glance.
  std::map<int, std::multiset<double>> queued_estimates_;
};

} // namespace acmesim
