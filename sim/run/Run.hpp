#pragma once
// One run of a scenario, independent of the engine that keeps time: the components that own its
// state (job table, queue, GPU holders, training jobs, recovery, node service, outages, trial
// groups, transfers), the records kept from the changes they publish, and the run loop. The
// engine adapter (Simulation) asks for the next event time, advances its clock there and calls
// process_instant(); it also reports the end of storage flows (transfer_done). Everything that
// happens at one instant is handled in the documented order (process_instant, EventKind).
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/failure/FailureEvent.hpp"
#include "models/failure/FailureRates.hpp"
#include "sim/policy_api/RecoveryPolicy.hpp"
#include "sim/run/CpuWork.hpp"
#include "sim/run/DecisionWatch.hpp"
#include "sim/run/JobQueue.hpp"
#include "sim/run/JobRecovery.hpp"
#include "sim/run/NodeService.hpp"
#include "sim/run/Outages.hpp"
#include "sim/run/RunRecords.hpp"
#include "sim/run/RunView.hpp"
#include "sim/run/TrainingJobs.hpp"
#include "sim/run/TrainingSpeeds.hpp"
#include "sim/run/TransferTable.hpp"
#include "sim/run/TrialGroups.hpp"

#include <limits>
#include <string>

namespace acmesim {

// What a run has besides jobs and a scheduler: failures, recovery, checkpoints, evaluation
// model loads, and the engine services they need; all optional (none: jobs just run).
struct RunSetup {
  FailureSource* failures = nullptr;          // nullptr: no failures
  const FailureSpec* failure_spec = nullptr;  // detection delays (required with failures)
  const RecoveryPolicy* recovery = nullptr;   // required with failures or spares
  const CheckpointSpec* checkpoint = nullptr; // nullptr or disabled: no job checkpoints
  TransferService* transfers = nullptr;       // required with checkpoints, failures or evaluation
  const EvalSpec* evaluation = nullptr;       // model loads of evaluation trials (pcie_GBps)
  const NetworkSpec* network = nullptr;       // nullptr or off: jobs run at their recorded speed
  RingService* rings = nullptr;               // required with the network model on
  JobFailureRate job_failure_rate;            // for Young's and Daly's intervals
  std::vector<double> start_overhead_s;       // by job id (StartOverheads.hpp); empty: none
  RuntimeEstimates estimates;                 // what schedulers' views estimate (workload.estimates)
  double decision_limit_s = 0;                // wall-time bound of one scheduler call; 0: none (DecisionWatch)
  std::string scheduler_name;                 // the policy, as that bound's message names it
  // What is recorded for the result files beyond the ledger's totals (docs/outputs.md).
  double utilisation_bin_s = 0; // > 0: the ledger keeps a series in bins of this width
  std::size_t utilisation_max_bins = 0; // > 0: at most this many (SeriesLimitReached beyond)
  bool timeline = false;        // record who held which GPU when (timeline.json)
};

// Whether a run with this setup moves data to or from storage (checkpoints, the restarts after
// failures, evaluation trials' model loads), so that it needs `setup.transfers`.
bool moves_storage_data(const Workload& workload, const RunSetup& setup);

// How the run loop went: for summary.json's "engine" section.
struct EngineCounters {
  std::uint64_t scheduler_calls = 0;
  std::uint64_t instants = 0;
  std::size_t max_queue_length = 0;
  // Time during which some GPU job was queued, and the GPU-seconds free (on nodes in service)
  // then: capacity that the scheduler's order or reservations, fragmentation or pod boundaries
  // kept from the queue.
  double queued_s = 0;
  double free_gpu_s_while_queued = 0;
};

class Run {
public:
  Run(const Topology& topology, const Workload& workload, Scheduler& scheduler, RunSetup setup = {});
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // +infinity once nothing is left to happen.
  double next_event_time() const;
  // Handles, in this order: job timers due now (ends, phase changes, recovery steps; by job id),
  // CPU work ending now, repairs due now, failures due now, submissions (campaigns triggered by
  // checkpoints first); then one scheduler call if anything the scheduler must know happened or
  // it asked to be woken now. Its preemptions are applied before its starts.
  void process_instant(double now);
  // The engine reports that every flow of a transfer has ended.
  void transfer_done(double now, TransferId id);
  // The engine reports that sharing on the fabric changed at `at` (a flow started or ended, a
  // link went off or on): training jobs whose rings now get a different rate change speed.
  void network_changed(double at);
  bool finished() const { return next_event_time() == std::numeric_limits<double>::infinity(); }
  // Every job ended or was rejected. A run that finished without it left a job stuck (waiting
  // for a storage flow that never ended, say): an internal error, not a result.
  bool all_jobs_done() const { return !jobs_.work_remains(); }

  // --- what the reports read -----------------------------------------------------------------
  double now() const { return clock_.now(); }
  const Topology& topology() const { return holders_.cluster().topology(); }
  // Every job: the workload's, then the trials of campaigns triggered by checkpoints.
  const JobTable& jobs() const { return jobs_; }
  // The GPUs a job holds, or held last (evaluation trials: those of their group).
  const Allocation& allocation(JobId id) const { return holders_.allocation(id); }
  // Nodes a job held in earlier attempts or lost under it (GpuHolders::earlier_nodes).
  const std::vector<NodeId>* earlier_nodes(JobId id) const { return holders_.earlier_nodes(id); }
  const Ledger& ledger() const { return records_.ledger(); }
  const RunStatistics& statistics() const { return records_.statistics(); }
  // The CPU cores jobs held, up to `end_s` (the makespan).
  CpuFigures cpu_figures(double end_s) const { return records_.cpus().until(end_s); }
  // How long after its submission the platform let a GPU job enter the queue (0: at once).
  double start_overhead_s(JobId id) const { return queue_.start_overhead_s(id); }
  // nullptr unless the setup asked for a timeline.
  const RunTimeline* timeline() const { return records_.timeline(); }
  const std::vector<CampaignRun>& campaigns() const { return trials_.campaigns(); }
  const EngineCounters& engine() const { return counters_; }
  // What the scheduler sees now.
  RunView view() const { return RunView(clock_, jobs_, queue_, holders_, training_, estimates_); }
  std::size_t cpu_only_jobs() const { return queue_.cpu_only_jobs(); }

private:
  RunCore core();
  void dispatch_timer(JobId id);
  void call_scheduler();
  void start(const StartDecision& decision);

  Clock clock_;
  RunRecords records_;
  SchedulerInbox inbox_;
  JobTable jobs_;
  GpuHolders holders_;
  CpuWork cpu_work_;
  JobQueue queue_;
  TransferTable transfers_;
  TrainingSpeeds speeds_;
  TrainingJobs training_;
  NodeService nodes_;
  JobRecovery recovery_;
  Outages outages_;
  TrialGroups trials_;
  Scheduler* scheduler_;
  DecisionWatch decision_watch_;
  RuntimeEstimates estimates_; // the setup's: what the scheduler's view estimates
  double scheduler_wake_at_ = std::numeric_limits<double>::infinity(); // the last call's Decisions::wake_at
  // Since the last instant: its time, whether a job was queued then, and the GPUs free then.
  double last_instant_s_ = 0;
  bool queued_ = false;
  int free_gpus_ = 0;
  EngineCounters counters_;
};

} // namespace acmesim
