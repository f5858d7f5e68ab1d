#pragma once
// Paired comparison of two policies run on the same seeds (common random numbers): the
// difference B - A is taken seed by seed, so the workload and failure noise both sides share
// cancels, and its confidence interval is Student's t on the per-seed differences.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace acmesim {

struct Interval {
  double low = 0;
  double high = 0;
  bool excludes_zero() const { return low > 0 || high < 0; }
  bool excludes_one() const { return low > 1 || high < 1; }
};

struct PairedDifference {
  std::size_t n = 0; // seeds with a value on both sides
  double a_mean = 0;
  double b_mean = 0;
  double diff_mean = 0;             // mean of b_i - a_i
  std::optional<Interval> diff_ci;  // needs n >= 2
  std::optional<double> ratio;      // b_mean / a_mean; none when a_mean is 0
  // Needs n >= 2 and a ratio; none when A's mean is not clearly away from zero (Fieller's set is
  // then unbounded).
  std::optional<Interval> ratio_ci;
  // -1 when B is lower, +1 when B is higher, 0 when the interval of the difference holds zero
  // (or there is none): the only case in which a verdict is stated.
  int direction() const;
};

// Relative tolerance within which a seed's B value is A's: two sums of the same numbers in another
// order differ by about 1e-16 of their size, and a verdict must not rest on that.
inline constexpr double FLOAT_NOISE = 1e-9;

// `a[i]` and `b[i]` come from the same seed. Throws std::invalid_argument on a length mismatch
// or on no pair at all, or a confidence outside (0, 1). A b[i] within FLOAT_NOISE of a[i]
// (relative to the larger) is taken as equal to it.
//
// The difference's interval is Student's t on the per-seed differences. The ratio's is Fieller's
// (Fieller, "Some problems in interval estimation", JRSS B 16, 1954): the ratios r for which the
// same t test of the residuals b_i - r a_i does not reject their mean being zero. At r = 1 the
// residuals are the differences, so the ratio interval holds 1 exactly when the difference
// interval holds 0. For metrics that are never negative (no a_i or b_i below 0) it is cut at 0.
PairedDifference paired_difference(const std::vector<double>& a, const std::vector<double>& b,
                                   double confidence = 0.95);

// The mean of a sample (one value per seed) and its one-sided bounds: with `confidence` c, the
// true mean is below `upper` (and, separately, above `lower`) with probability c, by Student's t
// with n - 1 degrees of freedom. Needs n >= 2; throws std::invalid_argument otherwise.
struct OneSidedMean {
  std::size_t n = 0;
  double mean = 0;
  double sd = 0; // sample standard deviation
  double upper = 0;
  double lower = 0;
  // The confidence with which the true mean is at most (or at least) `threshold`: the largest c
  // whose bound meets it. 1 or 0 when the sample does not vary.
  double confidence_at_most(double threshold) const;
  double confidence_at_least(double threshold) const;
};
OneSidedMean one_sided_mean(const std::vector<double>& x, double confidence);

// Two-sided Student t critical value: P(|T| <= t) = confidence with `df` degrees of freedom.
double t_critical(double confidence, double df);

} // namespace acmesim
