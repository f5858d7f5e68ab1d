#pragma once
// Simulation tests with failures: hand-written failure events replayed as a recorded list, and
// a recovery policy with round numbers, so that every delay in an expected value is readable.
#include "models/failure/FailureEvent.hpp"
#include "sim/config/Scenario.hpp"

#include <string>
#include <utility>
#include <vector>

namespace acmesim::testing {

inline FailureEvent failure(double t, Component c, std::uint32_t target, FailureCategory category, double repair_s)
{
  FailureEvent e;
  e.time_s = t;
  e.component = c;
  e.target = target;
  e.category = category;
  e.repair_s = repair_s;
  return e;
}

// 60 s to detect anything; a person resubmits 600 s later, day and night (no night rule); a
// 60 s health check before a restart.
inline Scenario with_failures(Scenario s, const std::string& recovery, std::vector<FailureEvent> failures)
{
  s.failures.source = FailureSpec::Source::Recorded;
  s.failures.detection_s.fill(60);
  s.recorded_failures = std::move(failures);
  s.recovery.name = recovery;
  s.recovery.params["person_delay_s"] = 600;
  s.recovery.params["night_start_hour"] = 0;
  s.recovery.params["night_end_hour"] = 0;
  s.recovery.params["health_check_s"] = 60;
  return s;
}

} // namespace acmesim::testing
