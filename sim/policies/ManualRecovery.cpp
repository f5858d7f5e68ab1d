// Recovery by a person: failures are noticed during working hours; a failure detected at night
// waits for the morning (Acme's pretraining runs were watched by people before automatic
// recovery, NSDI'24 §6.1). Defaults: ../shared/reference/models.md §1.3-1.5 and docs/failures.md.
#include "sim/policies/Registries.hpp"

#include <cmath>

namespace acmesim {

namespace {

constexpr double HOUR = 3600;
constexpr double DAY = 24 * HOUR;

class ManualRecovery final : public RecoveryPolicy {
public:
  explicit ManualRecovery(const PolicyParams& params)
      : delay_s_(params.number("person_delay_s"))
      , night_start_s_(params.number("night_start_hour") * HOUR)
      , night_end_s_(params.number("night_end_hour") * HOUR)
      , health_check_s_(params.number("health_check_s"))
      , max_restarts_(params.integer("max_restarts"))
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

const Registration manual(
    recovery_registry(),
    {"manual",
     "a person notices the detected failure and resubmits the job; faulty nodes stay in the pool unless they "
     "crashed",
     {{"person_delay_s", "time for a person to notice and resubmit during working hours", 1800, 0, 1e7, false},
      {"night_start_hour", "hour of day (0-24) from which nobody watches until night_end_hour", 22, 0, 24, false},
      {"night_end_hour", "hour of day (0-24) at which people are back", 8, 0, 24, false},
      {"health_check_s", "health check of the allocated nodes before every restart", 0, 0, 1e7, false},
      {"max_restarts", "interruptions after which a job is given up as failed", 50, 0, 1e6, true}}},
    [](const PolicyParams& params) { return std::make_unique<ManualRecovery>(params); });

} // namespace

} // namespace acmesim
