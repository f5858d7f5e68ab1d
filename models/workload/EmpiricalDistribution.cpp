#include "models/workload/EmpiricalDistribution.hpp"

#include "models/common/Text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace acmesim {

namespace {

std::string entry(const char* table, std::size_t i, double x)
{
  return std::string(table) + "[" + std::to_string(i) + "] = " + format_number(x);
}

} // namespace

std::string check_empirical_spec(const EmpiricalSpec& spec, EmpiricalDistribution::Kind kind)
{
  const auto& values = spec.values;
  const auto& cdf = spec.cdf;
  if (values.empty())
    return "table is empty (values must have at least one entry)";
  if (values.size() != cdf.size())
    return "values and cdf must have the same length (" + std::to_string(values.size()) + " values, " +
           std::to_string(cdf.size()) + " cdf entries)";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]))
      return "values must be finite (" + entry("values", i, values[i]) + ")";
    if (i > 0 && !(values[i] > values[i - 1]))
      return "values must be strictly increasing (" + entry("values", i, values[i]) + " after " +
             format_number(values[i - 1]) + ")";
  }
  if (kind == EmpiricalDistribution::Kind::LogLinear && !(values[0] > 0))
    return "values must be positive for a log-linear table (" + entry("values", 0, values[0]) + ")";
  for (std::size_t i = 0; i < cdf.size(); ++i) {
    // Written as a negated range test so that NaN is rejected too.
    if (!(cdf[i] >= 0 && cdf[i] <= 1))
      return "cdf entries must be in [0, 1] (" + entry("cdf", i, cdf[i]) + ")";
    if (i > 0 && cdf[i] < cdf[i - 1])
      return "cdf must be non-decreasing (" + entry("cdf", i, cdf[i]) + " after " + format_number(cdf[i - 1]) + ")";
  }
  // Exactly 1, not "close to 1": a shortfall would be probability mass the table does not place.
  if (cdf.back() != 1)
    return "the last cdf entry must be 1 (" + entry("cdf", cdf.size() - 1, cdf.back()) + ")";
  return "";
}

EmpiricalDistribution::EmpiricalDistribution(const EmpiricalSpec& spec, Kind kind)
  : values_(spec.values), cdf_(spec.cdf), kind_(kind)
{
  // Cheap enough to re-check, and an invalid table would otherwise index out of range.
  if (const auto problem = check_empirical_spec(spec, kind); !problem.empty())
    throw std::invalid_argument("invalid empirical table: " + problem);
}

double EmpiricalDistribution::sample(RandomEngine& rng) const { return quantile(uniform01(rng)); }

double EmpiricalDistribution::quantile(double u) const
{
  // First index whose cdf exceeds u. For u in [0, 1) it exists because the last cdf is 1;
  // u >= 1 (outside the domain) falls back to the largest value.
  const auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
  if (it == cdf_.end())
    return values_.back();
  const auto i = static_cast<std::size_t>(it - cdf_.begin());
  if (kind_ == Kind::Discrete || i == 0)
    return values_[i];
  // cdf_[i - 1] <= u < cdf_[i], so the segment has a positive width.
  const double t = (u - cdf_[i - 1]) / (cdf_[i] - cdf_[i - 1]);
  const double lo = std::log(values_[i - 1]);
  const double hi = std::log(values_[i]);
  // Spelled out rather than std::lerp so the arithmetic is the same with every standard library.
  return std::exp(lo + t * (hi - lo));
}

} // namespace acmesim
