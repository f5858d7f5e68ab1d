#pragma once
// A value/CDF table as a scenario key: `{values: [...], cdf: [...]}`, checked as a whole against
// the kind of distribution it is drawn as (models/workload/EmpiricalDistribution.hpp).
#include "models/workload/EmpiricalDistribution.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>

namespace acmesim {

// The keys of a value/CDF table whose values are `what`, in `unit` and within `range`.
KeyTable<EmpiricalSpec> table_keys(const NumberRange& range, const std::string& unit, const std::string& what);

// Both keys are reported missing before anything else is judged, then the whole is checked as a
// table of `kind`. False if anything is wrong (reported to `checker`).
bool read_table(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                const KeyTable<EmpiricalSpec>& keys, EmpiricalDistribution::Kind kind, EmpiricalSpec& spec);

// A table-valued key of `Spec`. With `optional`, null means none (an empty table), and an empty
// table echoes as null.
template <typename Spec>
ConfigKey<Spec> table_key(std::string name, EmpiricalSpec Spec::*member, const KeyTable<EmpiricalSpec>& keys,
                          EmpiricalDistribution::Kind kind, std::string help, bool optional = false)
{
  return ConfigKey<Spec>(other_doc(std::move(name), "map", "values and cdf", std::move(help)),
                         node_reader<Spec>([member, &keys, kind, optional](ConfigChecker& checker,
                                                                           const ConfigNode& node,
                                                                           const std::string& key, Spec& spec) {
                           if (optional && node.kind == ConfigNode::Kind::Null) {
                             spec.*member = {};
                             return true;
                           }
                           return read_table(checker, node, key, keys, kind, spec.*member);
                         }),
                         [member, &keys](const Spec& spec) {
                           return (spec.*member).values.empty() ? Json() : keys.echo(spec.*member);
                         },
                         [member, &keys](const std::string& path, const Spec& defaults) {
                           return keys.docs(path, defaults.*member);
                         });
}

} // namespace acmesim
