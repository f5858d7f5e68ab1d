#pragma once
// Burst shapes for tests of how bursts share links, worked out by hand.
#include "models/network/BurstSharing.hpp"

namespace acmesim::testing {

// A job that computes for `compute_s`, then sends `seconds_alone` worth of a unit link's capacity
// on its critical path, at most `peak`: the shape of a communication-heavy job that hides nothing.
inline Burst exposed(double compute_s, double seconds_alone, double peak = 1)
{
  Burst b;
  b.base_s = compute_s;
  b.critical_bytes = seconds_alone;
  b.peak_Bps = peak;
  return b;
}

} // namespace acmesim::testing
