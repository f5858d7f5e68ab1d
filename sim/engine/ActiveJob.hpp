#pragma once
// The live state of a GPU job between its first start and its end: which phase it is in, how
// far its training got, its last completed checkpoint and the storage flows it has in flight.
// Plain data owned by RunState.
#include "sim/engine/TransferService.hpp"
#include "sim/ledger/Ledger.hpp"

#include <cstdint>
#include <optional>

namespace acmesim {

enum class JobPhase : std::uint8_t {
  Starting,         // health check and initialisation before a restart (timer)
  Loading,          // reading the latest checkpoint back (storage flow)
  Training,         // useful work until the next checkpoint or the end (timer)
  Snapshot,         // asynchronous checkpoint: copy to host memory (timer)
  Writing,          // synchronous checkpoint: write to storage (storage flow)
  AwaitingUpload,   // asynchronous checkpoint due while the previous upload is still running
  Detecting,        // failed, not noticed (and diagnosed) yet (timer)
  WaitingForPerson, // noticed, waiting for someone to resubmit (timer)
  // Evaluation trials (EvalTrials.cpp):
  ModelLoad,  // the model comes from storage, or from the node's host memory (flow or timer)
  Preprocess, // tokenisation on CPU, GPUs held (timer)
  Inference,  // GPU inference (timer)
  Metric,     // metric computation on CPU, GPUs held (timer)
};

// Ledger state of the GPUs a job holds in each phase (Training: Busy, plus Stranded for the
// GPUs of its whole nodes it did not ask for).
GpuState ledger_state(JobPhase phase);

struct ActiveJob {
  JobPhase phase = JobPhase::Training;
  double phase_start_s = 0;
  std::uint64_t timer_seq = 0; // a timer is current only if its seq matches

  // Training progress in seconds of useful work (the job's duration is all of its work).
  double progress_s = 0;  // at phase_start_s
  double committed_s = 0; // progress saved by the latest completed checkpoint
  double next_checkpoint_s = 0; // progress at which the next checkpoint is due

  bool checkpoints = false;
  double interval_s = 0;
  double checkpoint_bytes = 0;
  double snapshot_s = 0;

  std::optional<TransferId> transfer;        // Writing or Loading
  std::optional<TransferId> upload;          // asynchronous upload overlapping training
  double upload_progress_s = 0;              // progress the upload will commit
  bool waits_for_storage = false;            // a transfer is due but storage is down
  bool restarting = false;                   // the current start follows an interruption
  int held_gpus = 0;                         // GPUs of the allocation on nodes in service
  bool give_up = false;                      // interrupted too often: ends at detection
  bool detected = false;                     // detection over, automatic diagnosis running

  // Evaluation trials run as a group on the leader's GPUs (the leader's entry holds this).
  JobId on_gpu = 0;              // the trial now on the GPUs
  std::vector<JobId> group_rest; // trials still to run, in order
  bool local_model = false;
  bool metric_on_cpu = false;
  bool waits_for_model = false;  // its node's copy of the model is still being loaded
};

// Per evaluation trial: where its time went (wall seconds).
struct TrialTimes {
  double load_s = 0;
  double preprocess_s = 0;
  double inference_s = 0;
  double metric_s = 0;
  double gpu_release_s = 0; // when its GPUs went to the next trial or back to the cluster
};

// Per-job figures of failures and checkpoints, kept only for jobs that had any.
struct JobFaultStats {
  int interruptions = 0;
  int checkpoints = 0;
  double lost_s = 0;       // training later recomputed (wall seconds)
  double checkpoint_s = 0; // training blocked by checkpoints
  double detection_s = 0;
  double waiting_s = 0;    // for a person
  double restart_s = 0;    // health check, initialisation, checkpoint load
  bool gave_up = false;
  double useful_s = 0;     // training kept, for a job given up (otherwise all of its work)
};

} // namespace acmesim
