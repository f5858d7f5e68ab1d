#pragma once
// What the reports tell besides the ledger, recorded from the state changes the run publishes:
// per job, where the time of its failures and checkpoints went; per evaluation trial, the time of
// its phases; the failures that took effect (failures.csv replays them); and counts of what
// failures did.
#include "sim/run/RunEvents.hpp"

#include <unordered_map>
#include <vector>

namespace acmesim {

// Per GPU job that had failures or checkpoints: wall seconds by cause.
struct JobFaultStats {
  int interruptions = 0;
  int checkpoints = 0;
  double lost_s = 0;       // training later recomputed
  double checkpoint_s = 0; // training blocked by checkpoints
  double detection_s = 0;
  double waiting_s = 0;    // for a person
  double restart_s = 0;    // health check, initialisation, checkpoint load
  bool gave_up = false;
  double useful_s = 0;     // training kept, for a job given up (otherwise all of its work)
};

// Per evaluation trial: where its time went (wall seconds).
struct TrialTimes {
  double load_s = 0;
  double preprocess_s = 0;
  double inference_s = 0;
  double metric_s = 0;
  double gpu_release_s = 0; // when its GPUs went to the next trial or back to the cluster
};

// What failures did (those applied are applied_failures()).
struct FailureCounts {
  std::size_t on_components_already_down = 0;
  std::size_t lemon_failures_avoided = 0; // drawn for a lemon whose defect a replacement cured
  std::size_t job_interruptions = 0;
  std::size_t escalations = 0;
  std::size_t spare_swaps = 0;
  std::size_t jobs_given_up = 0;
};

class RunStatistics final : public RunObserver {
public:
  // nullptr for a job that never checkpointed nor was interrupted.
  const JobFaultStats* fault_stats(JobId id) const;
  // nullptr unless the job is an evaluation trial that ran.
  const TrialTimes* trial_times(JobId id) const;
  // In the order they took effect.
  const std::vector<FailureEvent>& applied_failures() const { return applied_; }
  const FailureCounts& failure_counts() const { return counts_; }

  using RunObserver::on;
  void on(const PhaseChanged& c) override;
  void on(const AttemptStarted& c) override;
  void on(const AttemptEnded& c) override;
  void on(const WorkLost& c) override;
  void on(const CheckpointCommitted& c) override { ++faults_[c.job].checkpoints; }
  void on(const JobGivenUp& c) override;
  void on(const MetricMovedToCpu& c) override { trials_[c.trial].metric_s = c.metric_s; }
  void on(const NodeHealthChanged& c) override;
  void on(const FailureApplied& c) override;
  void on(const FailureIgnored& c) override;
  void on(const RepairEscalated&) override { ++counts_.escalations; }

private:
  std::unordered_map<JobId, JobFaultStats> faults_;
  std::unordered_map<JobId, TrialTimes> trials_;
  std::vector<FailureEvent> applied_;
  FailureCounts counts_;
};

} // namespace acmesim
