#pragma once
// The seam between the simulation and its policies (docs/design.md, principle 2).
//
// A scheduler sees a read-only ClusterView and the events that happened since its last call,
// and answers with decisions as data. It includes no SimGrid header and changes nothing
// itself: the simulation validates and applies the decisions. The same scheduler therefore
// runs in unit tests on hand-built views and in any engine.
#include "models/cluster/Topology.hpp"
#include "models/workload/Job.hpp"
#include "models/workload/RuntimeEstimates.hpp"
#include "sim/policy_api/ClusterState.hpp"
#include "sim/policy_api/JobShape.hpp"

#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace acmesim {

// Kinds of events, in the order they are delivered when they happen at the same instant:
// resources freed by finishing jobs are visible before new submissions are considered.
// Within one kind, events are ordered by job id (node id for node events). (Tested in the
// simulation tests.)
enum class EventKind : std::uint8_t {
  JobFinished = 0,  // the job ended and gave its GPUs back
  NodeDown = 1,     // a node left service (failure, cordon); jobs on it were interrupted
  NodeUp = 2,       // a node entered service (repaired, or a spare swapped into a job)
  JobRequeued = 3,  // an interrupted job gave its GPUs back and waits in the queue again
  JobSubmitted = 4,
};

struct SchedulerEvent {
  EventKind kind = EventKind::JobSubmitted;
  double time = 0;
  JobId job = 0;   // job events
  NodeId node = 0; // node events
};

// Start `job` now on `allocation`.
struct StartDecision {
  JobId job = 0;
  Allocation allocation;
  // For evaluation trials (Job::eval_trial()), the techniques of Acme's trial coordinator
  // (NSDI'24 §6.2); the defaults are a plain trial holding its GPUs through every phase:
  std::vector<JobId> then;    // queued trials of the same campaign run after `job` on the same
                              // GPUs, one after another, without loading the model again
  bool local_model = false;   // read the model from the node's host memory, where the first
                              // trial of the campaign on that node loads it from storage once
  bool metric_on_cpu = false; // give the GPUs to the next trial once inference ends; the
                              // metric runs on CPUs
};

struct Decisions {
  // Running jobs to stop now, applied in order before the starts (which may use their GPUs). A
  // preempted job gives its GPUs back at once and waits in the queue again: a training job loses
  // the work since its latest checkpoint and restarts from it (all of it without checkpoints).
  // No event tells of it: the scheduler decided it. Only jobs the view calls preemptible.
  std::vector<JobId> preempts;
  std::vector<StartDecision> starts;
  // Call the scheduler again at this time even if nothing happens by then (later than now;
  // +infinity: only when something happens). Each call's answer replaces the last one's.
  double wake_at = std::numeric_limits<double>::infinity();
};

struct RunningJob {
  JobId job = 0;
  double start_s = 0;
  Allocation allocation;
  // start_s + the run's estimate of its run time (ClusterView::estimates()): when a scheduler
  // expects its GPUs back. A job past it (failures make runs longer) may end at any moment.
  double estimated_end_s = 0;
};

// A link direction a running job's ring crosses (docs/network.md, "Routing between leaves").
struct CommLink {
  std::string name;    // as summary.json's busiest_links name it: "<cable>_UP" leaves the node or leaf
  LeafId leaf = 0;     // the leaf (a rail group, under rail wiring) the link belongs to
  bool uplink = false; // between that leaf and the spines; otherwise a node's cable to its leaf
  bool up = false;     // the direction away from the node (or the leaf)
  int flows = 1;       // the ring's flows on it
  bool core = false;   // between the spines of the leaf's block and the core tier (three-tier fabrics)
};

// What a running multi-node training job sends over the fabric, a step at a time, under the
// network model (docs/network.md, "What a training step costs"): the period and the phase a
// CASSINI-style policy interleaves, the bytes and links a Crux-style one weighs. Per NVLink domain:
// per node where NVLink stops at the node (PodSpec::nvlink_domain_nodes).
struct JobCommunication {
  double step_s = 0;    // one training step at the rate its ring gets now: the period
  double sending_s = 0; // of which its ring sends: a step's bytes at that rate (the rest is silent)
  double bytes = 0;     // sent by each domain a step
  double rate_Bps = 0;  // what its ring gets while it sends, now
  double alone_Bps = 0; // what its ring would get with the fabric to itself
  double slowdown = 1;  // its step now over its step on the fabric its duration was timed on
  bool paused = false;  // training stopped for a checkpoint: the ring holds its links, sends nothing
  std::vector<CommLink> links;

  double silent_s() const { return step_s - sending_s; }
  double mean_Bps() const { return step_s > 0 ? bytes / step_s : 0; }
};

// Read-only view of the simulation that schedulers decide on.
class ClusterView {
public:
  virtual ~ClusterView() = default;
  virtual double now() const = 0;
  virtual const Topology& topology() const = 0;
  virtual const ClusterState& cluster() const = 0;
  virtual const Job& job(JobId id) const = 0;
  // The run's jobs have ids 0 .. job_count() - 1 (evaluation trials included).
  virtual std::size_t job_count() const = 0;
  // GPU jobs waiting to start, in queue order (submission order).
  virtual const std::set<JobId>& queue() const = 0;
  // A GPU job holding an allocation (precondition: it holds one: it runs, or is recovering from
  // a failure in place). Its allocation loses the nodes that failed under it and may gain a
  // spare.
  virtual RunningJob running(JobId id) const = 0;
  // Every GPU job holding an allocation now, by job id (what running() gives of each).
  virtual std::vector<RunningJob> running_jobs() const = 0;
  // The run's estimate model (workload.estimates): what backfilling reserves against.
  virtual const RuntimeEstimates& estimates() const = 0;
  // The run time a scheduler expects of a job under that model.
  double estimate_s(JobId id) const { return estimates().of(job(id)); }
  // Whether a running job may be preempted now: it holds GPUs and is no group of evaluation
  // trials and not recovering from a failure (detection, waiting for a person).
  virtual bool preemptible(JobId id) const = 0;
  // The work of an evaluation trial (precondition: job(id).eval_trial()): its campaign,
  // dataset and the prior runtimes of its phases, as Acme's trial coordinator knows them.
  virtual const EvalChunk& eval_chunk(JobId id) const = 0;
  // What a job holding GPUs sends over the fabric while it trains; nothing for a job without a
  // ring (on one node, not training, an evaluation trial) or with the network model off.
  virtual std::optional<JobCommunication> communication(JobId id) const = 0;
};

// Chooses nodes for a job. Returns an empty allocation if the job does not fit now.
class PlacementPolicy {
public:
  virtual ~PlacementPolicy() = default;
  virtual Allocation place(const ClusterState& cluster, int gpus) = 0;
};

class Scheduler {
public:
  virtual ~Scheduler() = default;
  // Events are in delivery order (see EventKind). Decisions must fit the view's cluster when
  // applied in order; the simulation treats anything else as an internal error.
  virtual Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) = 0;
};

} // namespace acmesim
