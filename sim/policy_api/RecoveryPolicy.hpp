#pragma once
// What happens to a job after a failure has been detected (policies by name: recovery_registry()
// in Registries.hpp). A recovery policy answers questions; the simulation applies the answers.
// Plain C++, no engine.
#include <deque>

namespace acmesim {

class RecoveryPolicy {
public:
  virtual ~RecoveryPolicy() = default;

  // Seconds from detection until the job is resubmitted (or restarted on spares), for a failure
  // detected at `detected_at_s` of simulated time (t = 0 is midnight of day 0).
  virtual double resubmit_delay(double detected_at_s) const = 0;
  // True if that delay is a person's: the job's GPUs wait for someone (manual recovery).
  virtual bool waits_for_person() const = 0;
  // True if failed nodes are diagnosed and taken out of service even when they still answer
  // (cordoned), and recurring failures escalated. Without diagnosis only a crashed node
  // (node_failure) or a failed leaf switch leaves service; other faulty nodes stay in the pool.
  virtual bool diagnoses() const = 0;
  // Whether the failure of a node that failed at the times in `recent` (oldest first, this
  // one last) is escalated to a part replacement of `escalation_repair_s()`.
  virtual bool escalates(const std::deque<double>& recent) const = 0;
  virtual double escalation_repair_s() const = 0;
  virtual double escalation_window_s() const = 0;
  // Hot spare nodes held out of scheduling in each pod, swapped into interrupted jobs.
  virtual int spare_nodes_per_pod() const = 0;
  virtual double health_check_s() const = 0;
  // A job interrupted more often than this is given up (it ends as failed).
  virtual int max_restarts() const = 0;
};

} // namespace acmesim
