#pragma once
// The state changes of a run, each published once, where it happens. The ledger, the timeline and
// the run statistics observe them (RunObserver) and keep their records from them alone, so that a
// new feature records its GPU time by publishing, not by calling each record. Engine-free.
#include "models/failure/FailureEvent.hpp"
#include "models/workload/Job.hpp"
#include "sim/policy_api/JobShape.hpp"
#include "sim/run/JobPhase.hpp"

#include <optional>
#include <span>
#include <vector>

namespace acmesim {

// The GPUs a holder (a job, or the leader of a group of evaluation trials) holds, as the ledger
// counts them: all in one state, except that while busy the GPUs of its whole nodes beyond what
// it asked for are stranded.
struct Holding {
  GpuState state = GpuState::Idle;
  int asked = 0;
  int held = 0;
  bool operator==(const Holding&) const = default;
};

enum class NodeHealth : std::uint8_t { InService, Down, Spare };

// How a stretch of a job on its GPUs ended.
enum class HoldEnd : std::uint8_t {
  Finished,         // ran to its end (a job given up ends GivenUp instead)
  Interrupted,      // a failure hit the attempt; the GPUs it keeps go on as Recovering
  Requeued,         // recovery gave the GPUs back and queued the job again
  RestartedInPlace, // recovery restarted the job on the GPUs it held (and spares)
  GivenUp,          // interrupted too often: the job ended
  NodeLost,         // the node left service under the job
  Preempted,        // the scheduler stopped the job and queued it again
};
// As timeline.json shows them.
constexpr auto enum_names(HoldEnd)
{
  return names_in_order<HoldEnd>("finished", "interrupted", "requeued", "restarted in place", "given up",
                                 "node lost", "preempted");
}

// --- the changes -------------------------------------------------------------------------------
// `now` is the simulated time of the change; `holder` the job that holds the GPUs; `shown` the
// job running on them (the trial, in a group of evaluation trials; else the holder).

struct ClockAdvanced {
  double now;
};
// The holder took GPUs on the nodes of `parts`.
struct GpusTaken {
  double now;
  JobId holder;
  std::span<const Allocation::Part> parts;
  Holding before;
  Holding after;
};
// The holder gave back its GPUs on `node` (which left service under it), or all it held.
struct GpusReturned {
  double now;
  JobId holder;
  std::optional<NodeId> node;
  Holding before;
  Holding after;
};
struct PhaseChanged {
  double now;
  JobId holder;
  JobId shown;
  JobPhase from;
  JobPhase to;
  double since; // when `from` began
  Holding before;
  Holding after;
};
struct AttemptStarted {
  double now;
  JobId holder;
  JobId shown;
  bool trial; // an evaluation trial
};
struct AttemptEnded {
  double now;
  JobId holder;
  JobId shown;
  HoldEnd how;
  bool trial;
};
// Why a job lost work: each cause has its own ledger state.
enum class LossCause : std::uint8_t { Failure, Preemption };
// A failure or a preemption interrupted the job: its training since `since` until `until`
// (`lost_s` of it, on `gpus` GPUs) was lost and will be done again.
struct WorkLost {
  double now;
  JobId job;
  double lost_s;
  int gpus;
  double since;
  double until;
  LossCause cause;
};
// A stretch of training at one speed ended (the speed changed, or training stopped): `gpus` GPUs
// trained from `since` to `now` with steps `slowdown` times as long as on the reference fabric.
struct TrainedAtSpeed {
  double now;
  JobId job;
  int gpus;
  double since;
  double slowdown;
  double ring_Bps; // what its ring got per node while it sent (0: no ring)
};
// The network changed a training job's speed (its slowdown against the reference fabric).
struct SpeedChanged {
  double now;
  JobId job;
  double from;
  double to;
};
struct CheckpointCommitted {
  double now;
  JobId job;
};
// Interrupted too often: the job ends with `useful_s` of its work done.
struct JobGivenUp {
  double now;
  JobId job;
  double useful_s;
};
// A CPU-only job took (`cpus` > 0) or gave back (< 0) its CPU cores. GPU jobs hold theirs while they
// hold GPUs (GpusTaken, GpusReturned).
struct CpusChanged {
  double now;
  JobId job;
  int cpus;
};
// An evaluation trial's metric runs on CPUs for `metric_s` after its GPUs went to the next trial.
struct MetricMovedToCpu {
  double now;
  JobId trial;
  double metric_s;
};
// `unheld_gpus` are the node's GPUs no job holds (all of them when it leaves or enters service).
struct NodeHealthChanged {
  double now;
  NodeId node;
  NodeHealth from;
  NodeHealth to;
  int unheld_gpus;
  const FailureEvent* cause; // the failure taking it out (to Down), else nullptr
};
struct FailureApplied {
  const FailureEvent& failure;
};
// A drawn failure that had no effect: its component was already down, or its node was a lemon
// whose defect a part replacement had cured.
struct FailureIgnored {
  const FailureEvent& failure;
  bool lemon_cured;
};
struct RepairEscalated {
  NodeId node;
};

// --- observing and publishing ----------------------------------------------------------------

class RunObserver {
public:
  virtual ~RunObserver() = default;
  virtual void on(const ClockAdvanced&) {}
  virtual void on(const GpusTaken&) {}
  virtual void on(const GpusReturned&) {}
  virtual void on(const PhaseChanged&) {}
  virtual void on(const AttemptStarted&) {}
  virtual void on(const AttemptEnded&) {}
  virtual void on(const WorkLost&) {}
  virtual void on(const TrainedAtSpeed&) {}
  virtual void on(const SpeedChanged&) {}
  virtual void on(const CheckpointCommitted&) {}
  virtual void on(const JobGivenUp&) {}
  virtual void on(const CpusChanged&) {}
  virtual void on(const MetricMovedToCpu&) {}
  virtual void on(const NodeHealthChanged&) {}
  virtual void on(const FailureApplied&) {}
  virtual void on(const FailureIgnored&) {}
  virtual void on(const RepairEscalated&) {}
};

// Hands each change to every observer, in the order they subscribed.
class RunEvents {
public:
  void subscribe(RunObserver& observer) { observers_.push_back(&observer); }
  template <typename Change>
  void publish(const Change& change) const
  {
    for (RunObserver* observer : observers_)
      observer->on(change);
  }

private:
  std::vector<RunObserver*> observers_;
};

} // namespace acmesim
