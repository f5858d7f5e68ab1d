#include "sim/policy_api/PolicySpec.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace acmesim {

double PolicyParams::number(std::string_view name) const
{
  const auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("a policy asked for parameter '" + std::string(name) + "', which it did not declare");
  return it->second;
}

int PolicyParams::integer(std::string_view name) const { return static_cast<int>(std::lround(number(name))); }

} // namespace acmesim
