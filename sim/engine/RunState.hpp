#pragma once
// What happens to jobs and GPUs during a run, independent of the engine that keeps time:
// the queue, the running jobs, failures and recovery, checkpoints, the cluster state, the
// ledger and the per-job records. The engine adapter (Simulation) asks for the next event
// time, advances its clock there and calls process_instant(); it also reports the end of
// storage flows (transfer_done). Everything that happens at one instant is handled in the
// documented order (see process_instant and EventKind).
//
// The member functions are spread over three files by concern: RunState.cpp (instants,
// submissions, scheduler decisions), JobPhases.cpp (a job's phases: training, checkpoints,
// restarts, storage flows) and FailureHandling.cpp (failures, recovery, repairs, spares).
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/failure/FailureEvent.hpp"
#include "models/workload/Job.hpp"
#include "sim/engine/ActiveJob.hpp"
#include "sim/engine/RunTimeline.hpp"
#include "sim/ledger/Ledger.hpp"
#include "sim/policies/RecoveryPolicy.hpp"
#include "sim/scheduler/SchedulerApi.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace acmesim {

enum class JobOutcome : std::uint8_t {
  Pending,  // not submitted yet, or queued (again, after an interruption)
  Running,  // holds an allocation: running, or recovering in place from a failure
  Ended,    // ran to its end (or was given up after too many interruptions)
  Rejected, // asks for more GPUs than any pod has: it can never start
};

struct JobRecord {
  JobOutcome outcome = JobOutcome::Pending;
  double start_s = -1; // first start
  double end_s = -1;
  Allocation allocation; // kept after the end for the report
};

struct RunCounters {
  std::uint64_t scheduler_calls = 0;
  std::uint64_t instants = 0;
  std::size_t max_queue_length = 0;
  std::size_t rejected_jobs = 0;
  std::size_t cpu_only_jobs = 0;
  std::size_t failures_applied = 0;
  std::size_t failures_on_down_components = 0; // drawn for a component already out: no effect
  std::size_t excess_failures_cured = 0;       // lemon failures that did not happen: node cured
  std::size_t interruptions = 0;
  std::size_t escalations = 0;
  std::size_t spare_swaps = 0;
  std::size_t jobs_given_up = 0;
};

// What a run has besides jobs and a scheduler: failures, recovery, checkpoints, evaluation
// model loads, and the engine services they need; all optional (none: jobs just run).
struct RunSetup {
  FailureSource* failures = nullptr;          // nullptr: no failures
  const FailureSpec* failure_spec = nullptr;  // detection delays (required with failures)
  const RecoveryPolicy* recovery = nullptr;   // required with failures or spares
  const CheckpointSpec* checkpoint = nullptr; // nullptr or disabled: no job checkpoints
  TransferService* transfers = nullptr;       // required with checkpoints, failures or evaluation
  const EvalSpec* evaluation = nullptr;       // model loads of evaluation trials (pcie_GBps)
  // Expected failures per second interrupting a job of n nodes in pod p (Young/Daly).
  std::function<double(int pod, int nodes)> job_failure_rate;
  // What is recorded for the result files beyond the ledger's totals (docs/outputs.md).
  double utilisation_bin_s = 0; // > 0: the ledger keeps a series in bins of this width
  bool timeline = false;        // record who held which GPU when (timeline.json)
};

class RunState final : public ClusterView {
public:
  RunState(const Topology& topology, const Workload& workload, Scheduler& scheduler, RunSetup setup = {});

  // +infinity once nothing is left to happen.
  double next_event_time() const;
  // Handles, in this order: job timers due now (ends, phase changes, recovery steps; by job
  // id), CPU work ending now, repairs due now, failures due now, submissions (campaigns
  // triggered by checkpoints first); then one scheduler call if anything the scheduler must
  // know happened.
  void process_instant(double now);
  // The engine reports that every flow of a transfer has ended.
  void transfer_done(double now, TransferId id);
  bool finished() const { return next_event_time() == std::numeric_limits<double>::infinity(); }
  // Every job ended or was rejected. A run that finished without it left a job stuck (waiting
  // for a storage flow that never ended, say): an internal error, not a result.
  bool all_jobs_done() const { return !work_remains(); }

  // Indexed by job id; jobs added during the run (evaluation campaigns triggered by
  // checkpoints) come after the workload's.
  const std::deque<JobRecord>& records() const { return records_; }
  std::size_t job_count() const { return base_jobs_ + added_jobs_.size(); }
  struct CampaignRun {
    double submit_s = 0;
    std::int64_t trigger_job = -1; // the pretraining job whose checkpoint it evaluates; -1: scheduled
    int checkpoint = 0;            // which of that job's checkpoints
  };
  const std::vector<CampaignRun>& campaigns() const { return campaigns_; }
  const Ledger& ledger() const { return ledger_; }
  const RunCounters& counters() const { return counters_; }
  std::size_t ended_jobs() const { return ended_; }
  // nullptr for a job that never checkpointed nor was interrupted.
  const JobFaultStats* fault_stats(JobId id) const;
  // Phase times of an evaluation trial that ran (nullptr otherwise).
  const TrialTimes* trial_times(JobId id) const;
  // Failures in the order they took effect (written as failures.csv; replays this run).
  const std::vector<FailureEvent>& applied_failures() const { return applied_failures_; }
  // nullptr unless the setup asked for a timeline.
  const RunTimeline* timeline() const { return timeline_.get(); }

  // ClusterView
  double now() const override { return now_; }
  const Topology& topology() const override { return *topology_; }
  const ClusterState& cluster() const override { return cluster_; }
  const Job& job(JobId id) const override
  {
    return id < base_jobs_ ? workload_->jobs[id] : added_jobs_[id - base_jobs_];
  }
  const std::set<JobId>& queue() const override { return queue_; }
  RunningJob running(JobId id) const override;
  const EvalChunk& eval_chunk(JobId id) const override { return chunk_of(id); }

private:
  struct Timer {
    double time;
    std::uint32_t key; // job id, or node/leaf id for repairs
    std::uint64_t seq;
    bool operator>(const Timer& o) const
    {
      return std::tie(time, key, seq) > std::tie(o.time, o.key, o.seq);
    }
  };
  using TimerHeap = std::priority_queue<Timer, std::vector<Timer>, std::greater<>>;
  struct Repair {
    Component component;
    std::uint32_t target;
    bool replacement;
  };

  // RunState.cpp
  void submit_jobs(std::vector<SchedulerEvent>& events);
  void apply(const Decisions& decisions, std::vector<SchedulerEvent>& events);
  JobShape checked_shape(const Job& j, const Allocation& allocation) const;
  void finish_job(JobId id, std::vector<SchedulerEvent>& events); // a GPU job: ends and frees its GPUs
  void record_end(JobId id);
  void finish_cpu_work(); // CPU-only jobs and metrics moved off the GPUs that end now
  bool work_remains() const { return ended_ + counters_.rejected_jobs < job_count(); }
  void prune_stale_timers() const;

  // JobPhases.cpp
  void begin_job(JobId id, std::vector<SchedulerEvent>& events);
  void arm(JobId id, ActiveJob& a, double at);
  void enter(JobId id, ActiveJob& a, JobPhase phase, std::vector<SchedulerEvent>& events);
  void leave_phase(JobId id, ActiveJob& a);
  void on_timer(JobId id, std::vector<SchedulerEvent>& events);
  void plan_checkpoints(JobId id, ActiveJob& a); // size, snapshot time, interval of a new job
  void enter_training(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events);
  void checkpoint_due(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events);
  void start_transfer(JobId id, ActiveJob& a, bool upload);
  void drop_transfers(ActiveJob& a); // cancels what the job has in flight or waiting
  void move_held(ActiveJob& a, const Job& j, GpuState from_phase_state, GpuState to_state);
  JobFaultStats& stats(JobId id) { return fault_stats_[id]; }
  double shard_bytes(const ActiveJob& a, const Job& j) const;

  // EvalTrials.cpp
  void begin_trials(const StartDecision& start);
  void start_trial(JobId leader, ActiveJob& a, bool load);
  void model_loaded(JobId leader, ActiveJob& a);
  void eval_timer(JobId leader, ActiveJob& a, std::vector<SchedulerEvent>& events);
  void trial_off_gpu(JobId leader, ActiveJob& a, std::vector<SchedulerEvent>& events);
  void release_group(JobId leader, std::vector<SchedulerEvent>& events);
  void node_model_ready(std::uint64_t key);
  const EvalChunk& chunk_of(JobId id) const
  {
    const auto k = static_cast<std::size_t>(job(id).eval_chunk);
    return k < workload_->eval_chunks.size() ? workload_->eval_chunks[k] : added_chunks_[k - workload_->eval_chunks.size()];
  }
  void checkpoint_committed(JobId id); // may trigger an evaluation campaign
  void launch_triggered_campaigns(std::vector<SchedulerEvent>& events);

  // FailureHandling.cpp
  void init_spares();
  void apply_failures(std::vector<SchedulerEvent>& events);
  void apply_failure(const FailureEvent& e, std::vector<SchedulerEvent>& events);
  void interrupt(JobId id, FailureCategory category, std::vector<SchedulerEvent>& events);
  void take_out_of_service(NodeId node, std::vector<SchedulerEvent>& events);
  void node_back(NodeId node, std::vector<SchedulerEvent>& events);
  void apply_repairs(std::vector<SchedulerEvent>& events);
  void detection_over(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events);
  void resubmit(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events);
  bool swap_in_spares(JobId id, ActiveJob& a, std::vector<SchedulerEvent>& events);
  void storage_back();
  bool component_down(Component c, std::uint32_t target) const;

  const Topology* topology_;
  const Workload* workload_;
  Scheduler* scheduler_;
  RunSetup setup_;
  ClusterState cluster_;
  Ledger ledger_;
  double now_ = 0;
  int largest_fit_ = 0; // most GPUs a job may ask for and still fit some pod when empty
  std::size_t next_arrival_ = 0;
  std::set<JobId> queue_;
  std::deque<JobRecord> records_;
  std::size_t base_jobs_ = 0;
  std::deque<Job> added_jobs_;          // a deque: references to jobs stay valid as it grows
  std::deque<EvalChunk> added_chunks_;
  std::vector<CampaignRun> campaigns_;
  std::vector<JobId> pending_triggers_; // jobs whose checkpoint, committed now, asks for a campaign
  std::size_t ended_ = 0;
  RunCounters counters_;

  // Job timers (phase ends) and repair timers, each a min-heap ordered by (time, key, seq).
  mutable TimerHeap job_timers_;
  std::uint64_t next_seq_ = 0;
  std::unordered_map<JobId, ActiveJob> active_;
  std::unordered_map<JobId, JobFaultStats> fault_stats_;
  std::vector<std::vector<JobId>> jobs_on_node_; // GPU jobs holding GPUs on each node

  // Failures and repairs.
  TimerHeap repair_timers_;
  std::unordered_map<std::uint64_t, Repair> repairs_; // by timer seq
  std::vector<int> down_reasons_;          // per node: outages it is under (own, its leaf's)
  std::vector<bool> leaf_down_;
  bool storage_down_ = false;
  std::vector<bool> cured_;                // lemon defect repaired by a part replacement
  std::vector<bool> in_spare_pool_;
  std::vector<int> spares_wanted_;         // per pod
  std::vector<int> spares_in_pool_;        // per pod
  std::vector<std::deque<double>> recent_failures_; // per node, for escalation
  std::vector<FailureEvent> applied_failures_;
  std::vector<SchedulerEvent> initial_events_; // spares held out from the start
  std::unordered_map<TransferId, JobId> transfers_;
  // Work that holds no GPU, by (end time, job): CPU-only jobs (CPU capacity is not modelled) and
  // evaluation metrics moved off the GPUs. Ending it only closes the job's record.
  std::priority_queue<std::pair<double, JobId>, std::vector<std::pair<double, JobId>>, std::greater<>> cpu_work_;
  // Evaluation: the model copies in node host memory (key: campaign << 32 | node), the loads
  // filling them, and per-trial phase times.
  struct NodeModel {
    bool ready = false;
    std::vector<JobId> waiting; // group leaders
  };
  std::unordered_map<std::uint64_t, NodeModel> node_models_;
  std::unordered_map<TransferId, std::uint64_t> model_loads_;
  std::unordered_map<JobId, TrialTimes> trial_times_;
  TransferId next_transfer_ = 1;
  std::unique_ptr<RunTimeline> timeline_; // only when recording one: each hook checks it
};

} // namespace acmesim
