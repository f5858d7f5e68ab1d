#include "sim/experiment/PairedStats.hpp"

#include <boost/math/distributions/students_t.hpp>

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

PairedDifference paired_difference(const std::vector<double>& a, const std::vector<double>& b, double confidence)
{
  if (a.size() != b.size())
    throw std::invalid_argument("paired samples must have the same length");
  if (a.empty())
    throw std::invalid_argument("no paired sample");
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
    std::vector<double> residuals(p.n);
    for (std::size_t i = 0; i < p.n; ++i)
      residuals[i] = b[i] - *p.ratio * a[i];
    p.ratio_ci = around(*p.ratio, t * sample_sd(residuals) / (sqrt_n * std::abs(p.a_mean)));
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
