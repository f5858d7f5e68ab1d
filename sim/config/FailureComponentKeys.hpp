#pragma once
// `failures.components.<component>`: whether, how often and how each kind of component fails,
// and how it is repaired (docs/failures.md). A scenario's keys apply over the defaults of
// acme_failure_defaults(), key by key.
#include "models/failure/FailureSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `components: {gpu: {...}, ...}`: each named component's spec read over its defaults.
ConfigKey<FailureSpec> components_key();

// A map keyed by failure category: `read(category, value, key)` for each entry, which returns
// whether the value was valid. Unknown categories are reported. True if every entry was good.
template <typename Read>
bool read_by_category(ConfigChecker& checker, const ConfigNode& node, const std::string& key, Read read)
{
  MapReader m(checker, &node, key); // keys are categories, checked here
  if (!m.ok())
    return false;
  bool ok = true;
  for (const auto& entry : node.entries) {
    const std::string entry_key = join_key(key, entry.key);
    const auto category = parse_enum<FailureCategory>(entry.key);
    if (!category) {
      checker.error(entry.key_where, entry_key, entry.key,
                    "unknown failure category; valid: " + enum_name_list<FailureCategory>());
      ok = false;
      continue;
    }
    ok = read(*category, entry.value, entry_key) && ok;
  }
  return ok;
}

} // namespace acmesim
