#include "sim/policy_api/PolicySpec.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>
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

std::vector<std::string> declaration_problems(const PolicyInfo& info)
{
  std::vector<std::string> problems;
  std::set<std::string> seen;
  for (const ParamSpec& p : info.params) {
    const std::string name = "parameter '" + p.name + "'";
    const auto say = [&](const std::string& what) { problems.push_back(name + ": " + what); };
    if (p.name.empty())
      problems.emplace_back("a parameter has an empty name");
    else if (!seen.insert(p.name).second)
      say("declared more than once");
    const std::pair<const char*, double> numbers[] = {
        {"default", p.default_value}, {"min", p.min_value}, {"max", p.max_value}};
    bool finite = true;
    for (const auto& [what, value] : numbers)
      if (!std::isfinite(value)) {
        say(fmt::format("{} is {}, not a finite number", what, value));
        finite = false;
      }
    if (!finite)
      continue;
    if (p.min_value > p.max_value)
      say(fmt::format("min {} is above max {}", p.min_value, p.max_value));
    else if (p.default_value < p.min_value || p.default_value > p.max_value)
      say(fmt::format("default {} is outside [{}, {}]", p.default_value, p.min_value, p.max_value));
    if (p.integer && p.default_value != std::trunc(p.default_value))
      say(fmt::format("an integer parameter with the default {}", p.default_value));
  }
  return problems;
}

int PolicyParams::integer(std::string_view name) const { return static_cast<int>(std::lround(number(name))); }

} // namespace acmesim
