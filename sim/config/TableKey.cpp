#include "sim/config/TableKey.hpp"
#include "sim/config/PhysicalRanges.hpp"

namespace acmesim {

KeyTable<EmpiricalSpec> table_keys(const NumberRange& range, const std::string& unit, const std::string& what)
{
  return KeyTable<EmpiricalSpec>({
      number_list_key("values", &EmpiricalSpec::values, range, unit, what + ", strictly increasing").required(),
      number_list_key("cdf", &EmpiricalSpec::cdf, physical::PROBABILITY, NO_UNIT,
                      "P(X <= value) at each value: non-decreasing, ending at 1")
          .required(),
  });
}

bool read_table(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                const KeyTable<EmpiricalSpec>& keys, EmpiricalDistribution::Kind kind, EmpiricalSpec& spec)
{
  MapReader table(checker, &node, key, keys.names());
  if (!table.ok())
    return false;
  for (const auto& required : keys.names())
    table.require(required);
  if (!keys.read(table, spec, false))
    return false;
  const std::string problem = check_empirical_spec(spec, kind);
  if (!problem.empty())
    checker.error(node, key, problem);
  return problem.empty();
}

} // namespace acmesim
