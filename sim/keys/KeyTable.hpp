#pragma once
// The declared keys of one scenario map, in the order in which they are read, echoed and
// listed in the reference. A section declares its table once (a function-local static) and
// reads, echoes and documents itself through it:
//
//   const KeyTable<OutputSpec>& output_keys()
//   {
//     static const KeyTable<OutputSpec> keys({value_key("timeline", &OutputSpec::timeline, "..."), ...});
//     return keys;
//   }
#include "sim/keys/ConfigKey.hpp"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

template <typename Spec>
class KeyTable {
public:
  explicit KeyTable(std::vector<ConfigKey<Spec>> keys) : keys_(std::move(keys)) {}
  // The keys of several lists, in order (a section whose keys fall into groups).
  explicit KeyTable(std::initializer_list<std::vector<ConfigKey<Spec>>> groups)
  {
    for (const auto& group : groups)
      keys_.insert(keys_.end(), group.begin(), group.end());
  }

  const std::vector<ConfigKey<Spec>>& keys() const { return keys_; }

  // These keys in a larger spec that holds this table's spec as `member`, in one map.
  template <typename Outer>
  std::vector<ConfigKey<Outer>> of_member(Spec Outer::*member) const
  {
    std::vector<ConfigKey<Outer>> out;
    for (const auto& key : keys_)
      out.push_back(key.of_member(member));
    return out;
  }

  std::vector<std::string> names() const
  {
    std::vector<std::string> out;
    for (const auto& key : keys_)
      out.push_back(key.name());
    return out;
  }

  bool has(std::string_view name) const
  {
    return std::any_of(keys_.begin(), keys_.end(), [&](const ConfigKey<Spec>& key) { return key.name() == name; });
  }

  // The declared key `name`; asking for an undeclared one is a programming error.
  const ConfigKey<Spec>& at(std::string_view name) const
  {
    for (const auto& key : keys_)
      if (key.name() == name)
        return key;
    throw std::logic_error("no key '" + std::string(name) + "' is declared here");
  }

  // Reads every declared key the map has into `spec`, in order (keys without a reader are the
  // section's to read). Missing required keys are reported when `report_missing`. False if a
  // key was missing or invalid.
  bool read(MapReader& m, Spec& spec, bool report_missing = true) const
  {
    bool ok = true;
    for (const auto& key : keys_)
      ok = key.read(m, spec, report_missing) && ok;
    return ok;
  }

  // Reads the map `node` found at `key`: keys it does not declare are reported (naming the
  // declared ones), then every declared key is read. False after any problem.
  bool read_map(ConfigChecker& checker, const ConfigNode* node, const std::string& key, Spec& spec) const
  {
    MapReader m(checker, node, key, names());
    return m.ok() && read(m, spec);
  }

  // The echoed keys of `spec`, in order; a key whose echo is discarded is left out (a section
  // that is off writes what a run without it wrote).
  Json echo(const Spec& spec) const
  {
    Json json = Json::object();
    for (const auto& key : keys_)
      if (key.echoed())
        if (Json value = key.echo(spec); !value.is_discarded())
          json[key.name()] = std::move(value);
    return json;
  }

  // The reference lines of every key under `path`, defaults taken from `defaults`.
  std::vector<KeyDoc> docs(const std::string& path, const Spec& defaults) const
  {
    std::vector<KeyDoc> out;
    for (const auto& key : keys_) {
      std::vector<KeyDoc> lines = key.docs(path, defaults);
      out.insert(out.end(), lines.begin(), lines.end());
    }
    return out;
  }

private:
  std::vector<ConfigKey<Spec>> keys_;
};

// The echo of a section a scenario switches on by writing it: its keys, or only
// `enabled: false` when it is off.
template <typename Spec>
Json echo_if_enabled(const KeyTable<Spec>& keys, const Spec& spec)
{
  return spec.enabled ? keys.echo(spec) : Json{{"enabled", false}};
}

// A map whose own keys are declared by `table` and fill the member `member`.
template <typename Spec, typename Sub>
ConfigKey<Spec> map_key(std::string name, Sub Spec::*member, const KeyTable<Sub>& table, std::string help)
{
  KeyDoc doc = other_doc(name, "map", MAP_KEYS, std::move(help));
  doc.default_value = MAP_DEFAULTS;
  return {std::move(doc),
          [member, &table](MapReader& m, const std::string& key, Spec& spec) {
            return table.read_map(m.checker(), m.get(key), m.key_of(key), spec.*member);
          },
          [member, &table](const Spec& spec) { return table.echo(spec.*member); },
          [member, &table](const std::string& path, const Spec& defaults) {
            return table.docs(path, defaults.*member);
          }};
}

// A section of the scenario read whole by its own file rather than key by key through a table
// (ScenarioKeys.cpp's section_key): its file specialises both for the section's spec type, so the
// scenario's key table finds them by the type of the member they fill.
template <typename Spec>
Json section_echo(const Spec& spec);
template <typename Spec>
std::vector<KeyDoc> section_key_docs(const std::string& path);

} // namespace acmesim
