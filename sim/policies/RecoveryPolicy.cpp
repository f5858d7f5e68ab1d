#include "sim/policies/RecoveryPolicy.hpp"

#include "sim/policies/PolicyCatalogue.hpp"

#include <cmath>
#include <stdexcept>

namespace acmesim {

namespace {

constexpr double HOUR = 3600;
constexpr double DAY = 24 * HOUR;

// The scenario's value, or the catalogue default for specs built in code rather than loaded.
double param(const RecoverySpec& spec, const std::string& name)
{
  if (const auto it = spec.params.find(name); it != spec.params.end())
    return it->second;
  if (const PolicyInfo* info = find_policy(recovery_catalogue(), spec.name))
    for (const auto& p : info->params)
      if (p.name == name)
        return p.default_value;
  throw std::logic_error("recovery policy '" + spec.name + "' has no parameter " + name);
}

// Failures are noticed by a person during working hours; a failure detected at night waits for
// the morning (Acme's pretraining runs were watched by people before automatic recovery).
class ManualRecovery final : public RecoveryPolicy {
public:
  explicit ManualRecovery(const RecoverySpec& spec)
      : delay_s_(param(spec, "person_delay_s"))
      , night_start_s_(param(spec, "night_start_hour") * HOUR)
      , night_end_s_(param(spec, "night_end_hour") * HOUR)
      , health_check_s_(param(spec, "health_check_s"))
      , max_restarts_(static_cast<int>(param(spec, "max_restarts")))
  {
  }

  double resubmit_delay(double detected_at_s) const override
  {
    const double time_of_day = std::fmod(detected_at_s, DAY);
    return until_morning(time_of_day) + delay_s_;
  }
  bool waits_for_person() const override { return true; }
  bool diagnoses() const override { return false; }
  bool escalates(const std::deque<double>&) const override { return false; }
  double escalation_repair_s() const override { return 0; }
  double escalation_window_s() const override { return 0; }
  int spare_nodes_per_pod() const override { return 0; }
  double health_check_s() const override { return health_check_s_; }
  int max_restarts() const override { return max_restarts_; }

private:
  // Seconds from `t` (time of day) until the end of the night, 0 during working hours. The
  // night may wrap around midnight (22 -> 8) or not (1 -> 6); equal hours mean no night.
  double until_morning(double t) const
  {
    if (night_start_s_ == night_end_s_)
      return 0;
    if (night_start_s_ < night_end_s_)
      return t >= night_start_s_ && t < night_end_s_ ? night_end_s_ - t : 0;
    if (t >= night_start_s_)
      return DAY - t + night_end_s_;
    return t < night_end_s_ ? night_end_s_ - t : 0;
  }

  double delay_s_;
  double night_start_s_;
  double night_end_s_;
  double health_check_s_;
  int max_restarts_;
};

// Acme's fault-tolerant pretraining system (NSDI'24 §6.1): automatic diagnosis isolates the
// faulty node and the job restarts from its latest checkpoint without waiting for anyone.
class AutoRecovery final : public RecoveryPolicy {
public:
  AutoRecovery(const RecoverySpec& spec, int spare_nodes)
      : diagnosis_s_(param(spec, "diagnosis_s"))
      , health_check_s_(param(spec, "health_check_s"))
      , escalate_after_(static_cast<std::size_t>(param(spec, "escalate_after")))
      , window_s_(param(spec, "escalate_window_h") * HOUR)
      , escalation_repair_s_(param(spec, "escalation_repair_h") * HOUR)
      , max_restarts_(static_cast<int>(param(spec, "max_restarts")))
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

} // namespace

std::unique_ptr<RecoveryPolicy> make_recovery_policy(const RecoverySpec& spec)
{
  if (spec.name == "manual")
    return std::make_unique<ManualRecovery>(spec);
  if (spec.name == "auto")
    return std::make_unique<AutoRecovery>(spec, 0);
  if (spec.name == "auto+spares")
    return std::make_unique<AutoRecovery>(spec, static_cast<int>(param(spec, "spare_nodes")));
  throw std::logic_error("no recovery policy named '" + spec.name + "' (the loader should have refused it)");
}

} // namespace acmesim
