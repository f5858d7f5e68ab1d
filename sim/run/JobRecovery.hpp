#pragma once
// What happens to a job a failure interrupts: detection after a delay that depends on the
// failure's category, then what the recovery policy decides — wait for a person, diagnose, swap
// the failed nodes for hot spares and restart in place, queue the job again, or give it up after
// too many interruptions. Owns each interrupted job's recovery state. Preemptions by the scheduler
// end here too: the job is queued again at once.
#include "models/failure/FailureSpec.hpp"
#include "sim/policy_api/RecoveryPolicy.hpp"
#include "sim/run/JobQueue.hpp"
#include "sim/run/NodeService.hpp"
#include "sim/run/RunCore.hpp"
#include "sim/run/TrainingJobs.hpp"

#include <unordered_map>

namespace acmesim {

class JobRecovery {
public:
  JobRecovery(RunCore core, TrainingJobs& training, NodeService& nodes, JobQueue& queue,
              const RecoveryPolicy* policy, const FailureSpec* failures);

  // A failure of `category` hit the job (a job already failed only loses more of its nodes).
  void interrupt(JobId id, FailureCategory category);
  // The failure has been detected (or diagnosed, or a person came): the policy's next step.
  void on_timer(JobId id);
  // The scheduler preempted the job (in a preemptible phase): it loses the work since its latest
  // checkpoint, gives its GPUs back and queues again. No event: the scheduler decided it.
  void preempt(JobId id);

private:
  struct Recovery {
    int interruptions = 0;
    bool give_up = false;  // interrupted too often: ends when detected
    bool detected = false; // detection over, automatic diagnosis running
  };
  bool swap_in_spares(JobId id);
  void resubmit(JobId id);
  // Gives back what the job holds and queues it again, ahead of later submissions (the queue is
  // ordered by job id).
  void requeue(JobId id);

  RunCore core_;
  TrainingJobs& training_;
  NodeService& nodes_;
  JobQueue& queue_;
  const RecoveryPolicy* policy_;
  const FailureSpec* failures_;
  std::unordered_map<JobId, Recovery> recovering_;
};

} // namespace acmesim
