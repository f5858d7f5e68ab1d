#pragma once
// The figures the run statistics record (RunStatistics.hpp): per GPU job, where the time of its
// failures and checkpoints went; per evaluation trial, the time of its phases; what failures did.
// Plain records, also the base of what summary.json reports of them.
#include <cstddef>

namespace acmesim {

// Per GPU job that had failures, preemptions or checkpoints: wall seconds by cause.
struct JobFaultStats {
  int interruptions = 0;   // by failures
  int preemptions = 0;     // by the scheduler
  int checkpoints = 0;
  double lost_s = 0;       // training later recomputed, after failures
  double preempted_s = 0;  // training later recomputed, after preemptions
  double checkpoint_s = 0; // training blocked by checkpoints
  double detection_s = 0;
  double waiting_for_person_s = 0;
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

} // namespace acmesim
