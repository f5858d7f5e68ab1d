#pragma once
#include "sim/policies/EstimatedEnds.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/QueueScheduler.hpp"
#include "sim/policy_api/JobShape.hpp"

#include <cstdint>
#include <deque>
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
// A reservation stands while what it was planned on holds, and never moves later: jobs that end
// when their estimate said, and submissions, leave the plan as it is, and a reservation whose
// time comes starts on the nodes it holds. A job that ends before its estimate frees GPUs, and
// the plan is compressed (Mu'alem & Feitelson): each reservation in turn, in the plan's order,
// moves to the earliest time it fits given all the others, if that is sooner (now: it starts, on
// the nodes the placement policy picks). So a job starts no later than its first reservation
// said unless a job ran past its estimate, a job was queued again or the cluster changed (or, as
// a guard, a reservation whose time came found its GPUs taken): then the reservations are worked
// out anew, in the queue's order. The jobs that entered the queue since a plan was made are
// planned after every job that was in it, in the order they came (a job its start overhead held
// back may come after jobs it precedes in the queue). At most backfill_depth queued jobs are
// planned (a job that fits nowhere with the nodes in service is planned without a reservation);
// the others wait until one of those starts or a new plan is made. A job that starts as it is
// planned takes the nodes the placement policy picks among those free for its whole estimated
// run; a reservation in the future is on the tightest node (one-node jobs) or the
// lowest-numbered wholly free nodes.
//
// A pass plans only as far as a decision needs: once no queued job can start now, planning the
// others would start none of them. The plan is taken up where it stopped by the next pass that
// keeps it. A job not planned yet holds no reservation, and a compression moves only the jobs
// planned: so how far earlier passes planned (each plans at least one more job) can change what
// a compression does. Runs stay deterministic; planning every job up to the depth would make a
// plan made anew at every late end (most evaluation trials run past their estimates) cost the
// whole depth again.
//
// What a pass costs: a job end on time, the reservations that start and the jobs planned in
// their place. A compression looks again only at reservations that the GPUs freed since their
// last look could bring forward: each freed stretch (a node, a time span) is logged; a one-node
// job is taken off and placed again only if a logged node has room for it before its start, a
// job of whole nodes only if the nodes wholly free together before its start could now be
// enough (counted when needed, each logged node adding at most one to the last count). When the
// plan is made anew, the timeline is the last one with its reservations taken back, unless they
// held more nodes than the cluster has, a node counted once per reservation on it (then building
// it anew is cheaper); and its questions about the future are answered from indexes of free
// stretches (FreeGpuTimeline), not by reading every node.
class ConservativeBackfillScheduler final : public QueueScheduler {
public:
  // How the plan's timeline is kept: from pass to pass, with compressions looking again only at
  // the reservations freed GPUs could bring forward; or built anew for every pass, with every
  // reservation looked at (the same decisions at the cost of the whole cluster: for tests).
  enum class Bookkeeping { Kept, Fresh };
  // What a job end does to the plan: what is said above (reservations stand, compressed when a
  // job ends early), or every job end works all reservations out anew from the queue, as this
  // scheduler did before 2026-11-29 (scheduler.replan_every_end): a reservation may then move
  // later, and each job end costs a whole plan.
  enum class AtJobEnd { Compress, Replan };
  ConservativeBackfillScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                int backfill_depth, Bookkeeping bookkeeping = Bookkeeping::Kept,
                                AtJobEnd at_job_end = AtJobEnd::Compress);

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
    timeline_current_ = false;
    timeline_.reset(); // built anew from the cluster as it now is
  }

private:
  struct Held; // a reservation
  // Whether the reservations of the last pass still stand: only submissions and jobs that ended
  // by their estimated end since, and no running job at or past its estimate (its end was taken
  // to be the moment after that pass).
  bool plan_stands(const std::vector<SchedulerEvent>& events, double now) const;
  // Starts the jobs whose reservations have come, on the nodes they hold, in the plan's order;
  // false, doing nothing, if one of them cannot (the plan is then made anew).
  bool start_due(const ClusterView& view);
  // Moves each reservation, in the plan's order, to the earliest time it fits if that is sooner,
  // after GPUs were freed; one that can start now starts.
  void compress(const ClusterView& view);
  // Whether GPUs freed since `reservation` was last looked at might let it start sooner (never
  // false when they do). A one-node job can start sooner only on a node freed since, with room
  // for it there. A job of whole nodes can only where the nodes wholly free together before its
  // start are now enough: counted when needed, each node freed since adding at most one to the
  // last count.
  bool may_move_sooner(const ClusterView& view, Held& reservation);
  // Starts `job` now where the placement policy puts it among the GPUs free for its whole run
  // (`planned` if it finds none), and puts it on the timeline.
  void start_now(const ClusterView& view, JobId job, const Allocation& planned);
  // Notes that the allocation's GPUs became free over [from, until).
  void log_freed(const Allocation& allocation, double from, double until);
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
  // Bookkeeping::Fresh does for every pass (the reference the kept timeline is tested against).
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
  Bookkeeping bookkeeping_;
  AtJobEnd at_job_end_;
  EstimatedEnds running_; // the jobs it started
  // The plan: reservations on the timeline (not brought up to date while every job planned has
  // started).
  std::optional<FreeGpuTimeline> timeline_;
  bool timeline_current_ = false; // brought to this plan
  struct Held {
    JobId job;
    Allocation allocation;
    double from, until;
    std::uint64_t looked_at;           // the freed stretches logged before this had been allowed for
    // By pod, at most, the nodes wholly free together before `from` for a job of whole nodes
    // (kNotCounted; empty: not counted since it was placed).
    std::vector<int> most_wholly_free;
  };
  static constexpr int kNotCounted = -1;
  std::vector<Held> reservations_; // the plan's, to take back
  struct Released {
    Allocation allocation;
    double at;
  };
  std::unordered_map<JobId, Released> running_on_timeline_; // when the timeline has them give back
  // GPUs freed since the plan was made (an early end, a reservation moved sooner), in order;
  // the first has number freed_base_. Those every reservation has allowed for are dropped.
  struct Freed {
    NodeId node;
    double from, until;
  };
  std::deque<Freed> freed_;
  std::uint64_t freed_base_ = 0;
  std::uint64_t freed_end() const { return freed_base_ + freed_.size(); }
  // For may_move_sooner(), kept to spare allocations: the job's shape by pod, and which nodes it
  // has read (those marked with the latest stamp).
  std::vector<JobShape> shapes_scratch_;
  std::vector<int> added_scratch_;
  std::vector<std::uint64_t> node_seen_;
  std::uint64_t seen_stamp_ = 0;
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
