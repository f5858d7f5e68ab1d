#pragma once
// The phase a GPU job (or the leader of a group of evaluation trials) is in, and the ledger state
// of the GPUs it holds in each phase.
#include "sim/run/Ledger.hpp"

#include <cstdint>

namespace acmesim {

enum class JobPhase : std::uint8_t {
  Queued,           // holds no GPUs: not started yet, or queued again after an interruption
  Starting,         // health check and initialisation before a restart (timer)
  Loading,          // reading the latest checkpoint back (storage flow)
  Training,         // useful work until the next checkpoint or the end (timer)
  Snapshot,         // asynchronous checkpoint: copy to host memory (timer)
  Writing,          // synchronous checkpoint: write to storage (storage flow)
  AwaitingUpload,   // asynchronous checkpoint due while the previous upload is still running
  Detecting,        // failed, not noticed (and diagnosed) yet (timer)
  WaitingForPerson, // noticed, waiting for someone to resubmit (timer)
  // Evaluation trials (TrialGroups):
  ModelLoad,  // the model comes from storage, or from the node's host memory (flow or timer)
  Preprocess, // tokenisation on CPU, GPUs held (timer)
  Inference,  // GPU inference (timer)
  Metric,     // metric computation on CPU, GPUs held (timer)
  Ended,      // ran to its end, or was given up; holds no GPUs
};

// Ledger state of the GPUs a job holds in each phase (Training: Busy, plus Stranded for the GPUs of
// its whole nodes it did not ask for). Queued and Ended hold none.
GpuState ledger_state(JobPhase phase);

// The phases in which a scheduler may preempt a job: those of a training job holding its GPUs and
// not recovering from a failure.
constexpr bool preemptible(JobPhase phase) { return phase >= JobPhase::Starting && phase <= JobPhase::AwaitingUpload; }

} // namespace acmesim
