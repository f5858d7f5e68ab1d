#pragma once
// Sampling from a value/CDF table (EmpiricalSpec).
#include "models/common/Random.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <string>
#include <vector>

namespace acmesim {

class EmpiricalDistribution {
public:
  enum class Kind {
    Discrete,    // returns one of the table's values (step CDF)
    LogLinear,   // continuous: interpolates log(value) linearly in the CDF; values must be > 0
  };

  // Precondition: `spec` passed check_empirical_spec for this kind.
  EmpiricalDistribution(const EmpiricalSpec& spec, Kind kind);

  double sample(RandomEngine& rng) const;
  // Inverse CDF at u in [0, 1).
  double quantile(double u) const;

private:
  std::vector<double> values_;
  std::vector<double> cdf_;
  Kind kind_;
};

// Returns a description of what is wrong with the table, or "" if it is valid for the kind
// (non-empty, equal lengths, strictly increasing values, non-decreasing CDF in [0, 1]
// ending at 1, positive values for LogLinear).
std::string check_empirical_spec(const EmpiricalSpec& spec, EmpiricalDistribution::Kind kind);

} // namespace acmesim
