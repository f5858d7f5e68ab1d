#pragma once
// A distribution given as a table of values and their CDF (EmpiricalDistribution.hpp draws from it).
#include <vector>

namespace acmesim {

// A value/CDF table: cdf[i] = P(X <= values[i]); values strictly increasing, cdf
// non-decreasing in [0, 1] and ending at 1.
struct EmpiricalSpec {
  std::vector<double> values;
  std::vector<double> cdf;
};

} // namespace acmesim
