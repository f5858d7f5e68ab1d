#pragma once
// The phases of GPU jobs that are not evaluation trials: training toward the next checkpoint or
// the end, synchronous and asynchronous checkpoints as storage flows, restarts that read the
// latest checkpoint back. Owns each such job's progress and checkpoint state; while a job trains,
// its progress runs at its speed (TrainingSpeeds), which the network may change at any time.
#include "models/checkpoint/CheckpointPlan.hpp"
#include "models/failure/FailureRates.hpp"
#include "sim/run/RunCore.hpp"
#include "sim/run/TrainingSpeeds.hpp"
#include "sim/run/TransferTable.hpp"

#include <functional>
#include <optional>
#include <unordered_map>

namespace acmesim {

struct TrainingSetup {
  const CheckpointSpec* checkpoint = nullptr; // nullptr or disabled: no job checkpoints
  double health_check_s = 0;                  // before every restart (the recovery policy's)
  JobFailureRate failure_rate;                // for Young's and Daly's intervals (may be empty)
  // Called when a job's checkpoint is committed, with the number it has committed so far.
  std::function<void(JobId, int)> on_checkpoint;
};

class TrainingJobs {
public:
  TrainingJobs(RunCore core, TransferTable& transfers, TrainingSpeeds& speeds, TrainingSetup setup);

  // The job holds its GPUs and is Starting: it trains from scratch on its first start, or
  // restarts from its latest checkpoint.
  void begin(JobId id);
  // The timer of its phase (Training, Starting or Snapshot) is due.
  void on_timer(JobId id);
  void transfer_done(JobId id, TransferId transfer);
  // A failure hit the job, or the scheduler preempted it: the work since its latest checkpoint is
  // lost (published, with its cause), its transfers are cancelled and its progress goes back to
  // that checkpoint.
  void interrupt(JobId id, LossCause cause);
  // The job ends (its work is done, or it is given up), giving back its GPUs.
  void finish(JobId id, HoldEnd how);
  // Storage is back: transfers that waited for it start, by job id.
  void storage_back();
  // Sharing on the fabric changed: training jobs whose speed changed go on at their new one.
  void network_changed();
  // Training kept by the job's latest completed checkpoint.
  double committed_s(JobId id) const { return state_.at(id).committed_s; }
  // What the job's ring sends while it trains (TrainingSpeeds::communication at its speed).
  std::optional<JobCommunication> communication(JobId id) const;

private:
  struct TrainingState {
    double progress_s = 0;        // seconds of useful work done, as of `since`
    double since = 0;             // while training: when progress_s was last brought up to date
    TrainingSpeed speed;          // while training: wall seconds per second of useful work, ring rate
    double committed_s = 0;       // progress saved by the latest completed checkpoint
    double next_checkpoint_s = 0; // progress at which the next checkpoint is due
    std::optional<CheckpointPlan> plan; // jobs that checkpoint
    int checkpoints = 0;                // committed so far
    std::optional<TransferId> transfer; // Writing or Loading
    std::optional<TransferId> upload;   // an asynchronous upload overlapping training
    double upload_progress_s = 0;       // the progress the upload will commit
    bool waits_for_storage = false;     // a transfer is due but storage is down
  };

  bool checkpoints(const Job& job) const;
  void plan(JobId id, TrainingState& t);
  void enter_training(JobId id, TrainingState& t);
  // The end of the current training target at the job's speed.
  void arm_training(JobId id, const TrainingState& t);
  // Brings progress up to now at the speed it trained at (publishes the stretch).
  void account_training(JobId id, TrainingState& t);
  void checkpoint_due(JobId id, TrainingState& t);
  void start_transfer(JobId id, TrainingState& t, bool upload);
  void drop_transfers(TrainingState& t);
  void commit(JobId id, TrainingState& t);

  RunCore core_;
  TransferTable& transfers_;
  TrainingSpeeds& speeds_;
  TrainingSetup setup_;
  std::unordered_map<JobId, TrainingState> state_;
};

} // namespace acmesim
