// Acme's fault-tolerant pretraining system (NSDI'24 §6.1): automatic diagnosis isolates the
// faulty node and the job restarts from its latest checkpoint without waiting for anyone; with
// auto+spares, hot spare nodes replace the failed ones. Defaults: ../shared/reference/models.md
// §1.3-1.5 (assumptions marked there) and docs/failures.md.
#include "sim/policies/Registries.hpp"

namespace acmesim {

namespace {

constexpr double HOUR = 3600;

class AutoRecovery final : public RecoveryPolicy {
public:
  AutoRecovery(const PolicyParams& params, int spare_nodes)
      : diagnosis_s_(params.number("diagnosis_s"))
      , health_check_s_(params.number("health_check_s"))
      , escalate_after_(static_cast<std::size_t>(params.integer("escalate_after")))
      , window_s_(params.number("escalate_window_h") * HOUR)
      , escalation_repair_s_(params.number("escalation_repair_h") * HOUR)
      , max_restarts_(params.integer("max_restarts"))
      , spare_nodes_(spare_nodes)
  {
  }

  double resubmit_delay(double) const override { return diagnosis_s_; }
  bool waits_for_person() const override { return false; }
  bool diagnoses() const override { return true; }
  bool escalates(const std::deque<double>& recent) const override
  {
    if (recent.empty())
      return false;
    std::size_t in_window = 0;
    for (double t : recent)
      in_window += t >= recent.back() - window_s_ ? 1 : 0;
    return in_window >= escalate_after_;
  }
  double escalation_repair_s() const override { return escalation_repair_s_; }
  double escalation_window_s() const override { return window_s_; }
  int spare_nodes_per_pod() const override { return spare_nodes_; }
  double health_check_s() const override { return health_check_s_; }
  int max_restarts() const override { return max_restarts_; }

private:
  double diagnosis_s_;
  double health_check_s_;
  std::size_t escalate_after_;
  double window_s_;
  double escalation_repair_s_;
  int max_restarts_;
  int spare_nodes_;
};

std::vector<ParamSpec> automatic_recovery_params()
{
  return {
      {"diagnosis_s", "automatic diagnosis and faulty-node isolation after detection (Acme: two-round NCCL test)", 120,
       0, 1e7, false},
      {"health_check_s", "health check of the allocated nodes before every restart", 60, 0, 1e7, false},
      {"escalate_after", "failures of one node within the window that turn its repair into a part replacement", 2, 1,
       1e6, true},
      {"escalate_window_h", "window of the escalation rule, hours", 72, 0, 1e6, false},
      {"escalation_repair_h", "repair time of an escalated node (part replacement), hours", 48, 0, 1e6, false},
      {"max_restarts", "interruptions after which a job is given up as failed", 50, 0, 1e6, true},
  };
}

std::vector<ParamSpec> with_spares(std::vector<ParamSpec> params)
{
  params.push_back({"spare_nodes", "hot spare nodes held out of scheduling in each pod", 4, 0, 1e5, true});
  return params;
}

const Registration automatic(
    recovery_registry(),
    {"auto",
     "automatic diagnosis; faulty node cordoned; restart from the latest checkpoint at once; a recurring failure "
     "on one node escalated to a part replacement",
     automatic_recovery_params()},
    [](const PolicyParams& params) { return std::make_unique<AutoRecovery>(params, 0); });

const Registration automatic_with_spares(
    recovery_registry(),
    {"auto+spares",
     "as auto, and an interrupted job swaps its failed nodes for hot spares of its pod when enough are free",
     with_spares(automatic_recovery_params())},
    [](const PolicyParams& params) { return std::make_unique<AutoRecovery>(params, params.integer("spare_nodes")); });

} // namespace

} // namespace acmesim
