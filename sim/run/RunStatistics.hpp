#pragma once
// What the reports tell besides the ledger, recorded from the state changes the run publishes:
// per job, where the time of its failures and checkpoints went; per evaluation trial, the time of
// its phases; the failures that took effect (failures.csv replays them); and counts of what
// failures did.
#include "sim/run/RunEvents.hpp"
#include "sim/run/RunFigures.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

namespace acmesim {

class RunStatistics final : public RunObserver {
public:
  // `jobs`: the workload's; evaluation trials added during the run grow the tables.
  explicit RunStatistics(std::size_t jobs = 0) : jobs_(jobs) {}

  // nullptr for a job that never checkpointed nor was interrupted.
  const JobFaultStats* fault_stats(JobId id) const;
  // nullptr unless the job is an evaluation trial that ran.
  const TrialTimes* trial_times(JobId id) const;
  // In the order they took effect.
  const std::vector<FailureEvent>& applied_failures() const { return applied_; }
  const FailureCounts& failure_counts() const { return counts_; }
  // A training job's slowdown over all its training: wall time over reference time (1 if it never
  // trained).
  double slowdown(JobId id) const;
  // The bus bandwidth a training job's ring got while it sent, per node, time-weighted over the
  // training it did with a ring (nullopt: it never trained on several nodes).
  std::optional<double> ring_bandwidth_Bps(JobId id) const;

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
  void on(const TrainedAtSpeed& c) override;

private:
  std::unordered_map<JobId, JobFaultStats> faults_;
  std::unordered_map<JobId, TrialTimes> trials_;
  struct Trained {
    double wall_s = 0;
    double reference_s = 0;
    double ring_s = 0;     // wall time with a ring
    double ring_bytes = 0; // the ring's rate over that time
  };
  // By job id, grown on demand: most GPU jobs train, so a table beats a hash map's lookups.
  std::vector<Trained> trained_; // empty until a job trains at a speed (the network model)
  std::size_t jobs_;
  std::vector<FailureEvent> applied_;
  FailureCounts counts_;
};

} // namespace acmesim
