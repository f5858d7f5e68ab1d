#pragma once
// Sampling from a value/CDF table (EmpiricalSpec).
#include "models/common/Random.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <string>
#include <vector>

namespace acmesim {

//
// With values v[0..n-1] and cdf c[0..n-1] (c[n-1] = 1), the inverse CDF q(u), u in [0, 1), is:
//
//   Discrete:  q(u) = v[i] for the smallest i with c[i] > u (a step function). A value whose cdf
//              equals its predecessor's has probability 0 and is never returned.
//   LogLinear: the table is read as the points (v[i], c[i]) joined by segments that are linear in
//              log(value), plus an implicit start point (v[0], 0) that makes P(X = v[0]) = c[0]:
//                q(u) = v[0]                                                     if u < c[0]
//                q(u) = exp(log v[i-1] + t * (log v[i] - log v[i-1])),
//                       t = (u - c[i-1]) / (c[i] - c[i-1])                       if c[i-1] <= u < c[i]
//              so a table {10, 1000} / {0.5, 1} has q(0.75) = 100. Log-space interpolation suits
//              durations and sizes spanning several orders of magnitude.
//
// For u >= 1 (outside the domain) both kinds return v[n-1].
//
// Randomness comes only from uniform01 (never a std:: distribution), so a seed gives the same
// draws with every standard library.
class EmpiricalDistribution {
public:
  enum class Kind {
    Discrete,    // returns one of the table's values (step CDF)
    LogLinear,   // continuous: interpolates log(value) linearly in the CDF; values must be > 0
  };

  // Precondition: `spec` passed check_empirical_spec for this kind; an invalid table throws
  // std::invalid_argument (a programming error: loaders must check and report it first).
  EmpiricalDistribution(const EmpiricalSpec& spec, Kind kind);

  // quantile(uniform01(rng)): exactly one draw from the engine.
  double sample(RandomEngine& rng) const;
  // Inverse CDF at u in [0, 1), as defined above.
  double quantile(double u) const;

private:
  std::vector<double> values_;
  std::vector<double> cdf_;
  Kind kind_;
};

// Returns a description of the first problem with the table, or "" if it is valid for the kind
// (non-empty, equal lengths, finite and strictly increasing values, non-decreasing CDF in [0, 1]
// ending at exactly 1, positive values for LogLinear). Messages name the offending entry, e.g.
// "values must be strictly increasing (values[2] = 4 after 4)"; callers add where the table is.
std::string check_empirical_spec(const EmpiricalSpec& spec, EmpiricalDistribution::Kind kind);

} // namespace acmesim
