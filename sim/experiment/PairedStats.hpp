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
  std::optional<Interval> ratio_ci; // needs n >= 2 and a ratio
  // -1 when B is lower, +1 when B is higher, 0 when the interval of the difference holds zero
  // (or there is none): the only case in which a verdict is stated.
  int direction() const;
};

// `a[i]` and `b[i]` come from the same seed. Throws std::invalid_argument on a length mismatch
// or on no pair at all, or a confidence outside (0, 1).
//
// The ratio's interval is the delta-method (linearised) interval of a ratio of paired means:
// with r = mean(b) / mean(a) and residuals e_i = b_i - r a_i, se(r) = sd(e) / (sqrt(n) |mean(a)|),
// and the interval is r +- t se(r) with the same n - 1 degrees of freedom (Cochran, Sampling
// Techniques, 3rd ed., section 6.4). It needs no positive values, unlike a log-ratio.
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
