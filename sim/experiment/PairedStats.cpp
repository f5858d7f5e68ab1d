#include "sim/experiment/PairedStats.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace acmesim {

namespace {

double mean(const std::vector<double>& v)
{
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Sample standard deviation (n - 1 in the denominator).
double sample_sd(const std::vector<double>& v)
{
  const double m = mean(v);
  double squares = 0;
  for (const double x : v)
    squares += (x - m) * (x - m);
  return std::sqrt(squares / static_cast<double>(v.size() - 1));
}

Interval around(double centre, double half_width)
{
  return {centre - half_width, centre + half_width};
}

// Sample covariance (n - 1 in the denominator).
double sample_covariance(const std::vector<double>& x, const std::vector<double>& y)
{
  const double mx = mean(x), my = mean(y);
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    sum += (x[i] - mx) * (y[i] - my);
  return sum / static_cast<double>(x.size() - 1);
}

// Fieller's interval for mean(b) / mean(a): the r with (mean(b) - r mean(a))^2 <= t^2 var(b - r a) / n,
// a quadratic q r^2 + l r + c <= 0. Bounded when q > 0, that is when mean(a) is itself clearly
// away from zero; otherwise none.
std::optional<Interval> fieller(const std::vector<double>& a, const std::vector<double>& b, double t)
{
  const double n = static_cast<double>(a.size());
  const double ma = mean(a), mb = mean(b);
  const double k = t * t / n;
  const double q = ma * ma - k * sample_covariance(a, a);
  const double l = -2 * (ma * mb - k * sample_covariance(a, b));
  const double c = mb * mb - k * sample_covariance(b, b);
  if (q <= 0)
    return std::nullopt;
  // The ratio mean(b) / mean(a) lies inside, so the discriminant is not negative but for rounding.
  const double root = std::sqrt(std::max(l * l - 4 * q * c, 0.0));
  return Interval{(-l - root) / (2 * q), (-l + root) / (2 * q)};
}

bool never_negative(const std::vector<double>& v)
{
  return std::all_of(v.begin(), v.end(), [](double x) { return x >= 0; });
}

// b with each value within FLOAT_NOISE of a's replaced by a's.
std::vector<double> without_float_noise(const std::vector<double>& a, std::vector<double> b)
{
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::abs(b[i] - a[i]) <= FLOAT_NOISE * std::max(std::abs(a[i]), std::abs(b[i])))
      b[i] = a[i];
  return b;
}

} // namespace

int PairedDifference::direction() const
{
  if (!diff_ci || !diff_ci->excludes_zero())
    return 0;
  return diff_mean < 0 ? -1 : 1;
}

double t_critical(double confidence, double df)
{
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("confidence must lie strictly between 0 and 1");
  const boost::math::students_t t(df);
  return boost::math::quantile(t, 0.5 + confidence / 2);
}

PairedDifference paired_difference(const std::vector<double>& a, const std::vector<double>& b_given,
                                   double confidence)
{
  if (a.size() != b_given.size())
    throw std::invalid_argument("paired samples must have the same length");
  if (a.empty())
    throw std::invalid_argument("no paired sample");
  const std::vector<double> b = without_float_noise(a, b_given);
  PairedDifference p;
  p.n = a.size();
  p.a_mean = mean(a);
  p.b_mean = mean(b);
  std::vector<double> diffs(p.n);
  for (std::size_t i = 0; i < p.n; ++i)
    diffs[i] = b[i] - a[i];
  p.diff_mean = mean(diffs);
  if (p.a_mean != 0)
    p.ratio = p.b_mean / p.a_mean;
  if (p.n < 2)
    return p;
  const double sqrt_n = std::sqrt(static_cast<double>(p.n));
  const double t = t_critical(confidence, static_cast<double>(p.n - 1));
  p.diff_ci = around(p.diff_mean, t * sample_sd(diffs) / sqrt_n);
  if (p.ratio) {
    p.ratio_ci = fieller(a, b, t);
    if (p.ratio_ci && never_negative(a) && never_negative(b))
      p.ratio_ci->low = std::max(p.ratio_ci->low, 0.0);
  }
  return p;
}

OneSidedMean one_sided_mean(const std::vector<double>& x, double confidence)
{
  if (x.size() < 2)
    throw std::invalid_argument("a one-sided bound needs at least two values");
  OneSidedMean m;
  m.n = x.size();
  m.mean = mean(x);
  m.sd = sample_sd(x);
  // One-sided at c is two-sided at 2c - 1.
  const double half_width = t_critical(2 * confidence - 1, static_cast<double>(m.n - 1)) * m.sd /
                            std::sqrt(static_cast<double>(m.n));
  m.upper = m.mean + half_width;
  m.lower = m.mean - half_width;
  return m;
}

double OneSidedMean::confidence_at_most(double threshold) const
{
  if (sd == 0)
    return mean <= threshold ? 1.0 : 0.0;
  const boost::math::students_t t(static_cast<double>(n - 1));
  return boost::math::cdf(t, (threshold - mean) / (sd / std::sqrt(static_cast<double>(n))));
}

double OneSidedMean::confidence_at_least(double threshold) const
{
  if (sd == 0)
    return mean >= threshold ? 1.0 : 0.0;
  return 1 - confidence_at_most(threshold);
}

} // namespace acmesim
