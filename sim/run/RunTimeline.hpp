#pragma once
// The record behind timeline.json (docs/outputs.md): which job held which GPUs of which node
// and when, and when nodes were out of service or held back as spares. Engine-free; it observes
// the state changes of the run (GPUs taken and given back, attempts started and ended, nodes
// leaving and returning to service). The run subscribes one only when the scenario asks for the
// timeline.
//
// An allocation gives GPU counts per node, not GPU indices: the timeline gives each job the
// lowest free GPU lanes of every node it takes and keeps them until the job gives that node
// back, so pieces never overlap on one lane.
#include "models/cluster/Topology.hpp"
#include "sim/run/RunEvents.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace acmesim {

// What a job did with the GPUs it held: ran (an attempt: from its start, restart steps
// included, to its end or interruption), or held them failed until recovery let them go.
enum class HoldKind : std::uint8_t { Attempt, Recovering };

// One stretch of one job on some GPU lanes of one node.
struct GpuPiece {
  double start_s = 0;
  double end_s = 0;
  JobId job = 0;           // the job shown: in a group of evaluation trials, the trial
  NodeId node = 0;
  std::uint64_t lanes = 0; // bit k: GPU k of the node (the loader allows at most 64 per node)
  HoldKind kind = HoldKind::Attempt;
  HoldEnd end = HoldEnd::Finished;
  std::uint32_t attempt = 1; // 1 for the job's first start
};

// A node out of service (Down: failed, under repair or cordoned) or held back as a hot spare.
struct NodeInterval {
  double start_s = 0;
  double end_s = 0;
  NodeId node = 0;
  NodeHealth health = NodeHealth::Down;
  FailureEvent cause;          // the failure that took it out (Down only)
  bool until_run_end = false;  // still open when the run ended: end_s is the makespan
};

// A training job's speed changed because what the network gives it changed (slowdown factors).
struct SpeedMark {
  double now_s = 0;
  JobId job = 0;
  NodeId node = 0; // the first node the job holds
  double from = 1, to = 1;
};

class RunTimeline final : public RunObserver {
public:
  explicit RunTimeline(const Topology& topology);

  using RunObserver::on;
  void on(const GpusTaken& c) override { take(c.now, c.holder, c.parts); }
  void on(const GpusReturned& c) override;
  void on(const AttemptStarted& c) override { attempt_started(c.now, c.holder, c.shown); }
  void on(const AttemptEnded& c) override;
  void on(const NodeHealthChanged& c) override { node_health(c.now, c.node, c.to, c.cause); }
  void on(const SpeedChanged& c) override;

  // In the order they ended.
  const std::vector<GpuPiece>& pieces() const { return pieces_; }
  // In the order they happened.
  const std::vector<SpeedMark>& speed_marks() const { return speed_marks_; }
  // In the order they ended, then those still open, closed at `run_end_s`, by node.
  std::vector<NodeInterval> node_intervals(double run_end_s) const;

private:
  // `holder` (a job, or the leader of a group of evaluation trials) takes GPUs on each node of `parts`.
  void take(double now, JobId holder, std::span<const Allocation::Part> parts);
  // It gives back what it holds on `node` (the node left service), or everything.
  void give_back(double now, JobId holder, NodeId node);
  void give_back_all(JobId holder);
  // `shown` starts an attempt on the GPUs `holder` holds (another job for later trials of a group).
  void attempt_started(double now, JobId holder, JobId shown);
  // A failure interrupted the attempt: the job goes on holding what it keeps, recovering.
  void attempt_interrupted(double now, JobId holder);
  // The current attempt or recovery ends.
  void stretch_ended(double now, JobId holder, HoldEnd how);
  // `cause`: the failure taking the node out (health Down).
  void node_health(double now, NodeId node, NodeHealth health, const FailureEvent* cause);

  struct HeldNode {
    NodeId node;
    std::uint64_t lanes;
    double since_s;
  };
  struct Holder {
    std::vector<HeldNode> nodes;
    bool open = false; // an attempt or recovery is under way
    JobId shown = 0;
    HoldKind kind = HoldKind::Attempt;
    double start_s = 0;
    std::uint32_t attempt = 0;
  };
  Holder& holder(JobId id);
  void emit(const Holder& h, const HeldNode& held, double now, HoldEnd how);

  std::vector<std::uint64_t> free_lanes_; // per node: bit k set while GPU k is free
  std::unordered_map<JobId, Holder> holders_;
  std::unordered_map<JobId, std::uint32_t> attempts_; // by job shown
  std::vector<GpuPiece> pieces_;
  std::vector<SpeedMark> speed_marks_;
  std::vector<NodeInterval> closed_;
  std::vector<std::optional<NodeInterval>> open_; // per node
};

} // namespace acmesim
