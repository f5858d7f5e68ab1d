#include "sim/experiment/PlanSpec.hpp"

#include "models/common/Text.hpp"

#include <fmt/format.h>

namespace acmesim {

std::string PlanTarget::describe() const
{
  return fmt::format("{} {} {}", metric, at_most ? "<=" : ">=", format_number(threshold));
}

std::string PlanGuard::describe() const
{
  return fmt::format("{} at most {}% worse than the base", metric, format_number(100 * worsens_by_at_most));
}

std::string PlanCost::describe(const std::vector<PlanVariable>& variables) const
{
  const std::string in_unit = unit.empty() ? "" : " (" + unit + ")";
  if (metric)
    return "mean " + *metric + in_unit;
  std::string out;
  for (std::size_t i = 0; i < variables.size() && i < per_unit.size(); ++i)
    if (per_unit[i] != 0)
      out += fmt::format("{}{} x {}", out.empty() ? "" : " + ", format_number(per_unit[i]), variables[i].key);
  if (energy)
    out += fmt::format("{}{} per facility kWh over {} days", out.empty() ? "" : " + ",
                       format_number(energy->price_per_kwh), format_number(energy->horizon_days));
  if (fixed != 0 || out.empty())
    out += fmt::format("{}{}", out.empty() ? "" : " + ", format_number(fixed));
  return out + in_unit;
}

std::size_t PlanSpec::candidate_count() const
{
  std::size_t n = 1;
  for (const auto& v : variables)
    n *= v.values.size();
  return n;
}

std::vector<std::size_t> PlanSpec::value_indices(std::size_t candidate) const
{
  std::vector<std::size_t> indices(variables.size());
  for (std::size_t i = variables.size(); i-- > 0;) {
    indices[i] = candidate % variables[i].values.size();
    candidate /= variables[i].values.size();
  }
  return indices;
}

std::size_t PlanSpec::candidate_of(const std::vector<std::size_t>& value_indices) const
{
  std::size_t candidate = 0;
  for (std::size_t i = 0; i < variables.size(); ++i)
    candidate = candidate * variables[i].values.size() + value_indices[i];
  return candidate;
}

std::string PlanSpec::candidate_id(std::size_t candidate) const
{
  return fmt::format("c{:06}", candidate);
}

} // namespace acmesim
