#pragma once
// Keys written with the names of an enum (EnumNames.hpp): a list of the names, or a map from the
// names to numbers. Each is declared once, with the enum, a noun for messages and the range of its
// numbers; reading, checking, the echo and the reference lines all follow from that.
//
//   names_key<JobType>("job_types", &CheckpointSpec::job_types, {"job type", "job types"}, "...", "...")
#include "sim/keys/ConfigKey.hpp"
#include "sim/keys/KeyTable.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace acmesim {

// How messages and the reference call the names: "job type", "job types".
struct NameNoun {
  std::string one;
  std::string many;
};

// Reads a map keyed by the names of E: `read(name, value node, key of the entry)` for each entry,
// returning whether its value was good; an unknown name is reported. True if every entry was good.
template <NamedEnum E, typename Read>
bool read_by_name(ConfigChecker& checker, const ConfigNode& node, const std::string& key, const NameNoun& noun,
                  Read read)
{
  bool ok = true;
  for (const auto& entry : node.entries) {
    const std::string entry_key = join_key(key, entry.key);
    const auto value = parse_enum<E>(entry.key);
    if (!value) {
      checker.error(entry.key_where, entry_key, entry.key,
                    "unknown " + noun.one + "; valid " + noun.many + ": " + enum_name_list<E>());
      ok = false;
      continue;
    }
    ok = read(*value, entry.value, entry_key) && ok;
  }
  return ok;
}

// `key: [a, b]`: names of E, each once; replaced only when every item is good. `if_empty` is the
// message for an empty list.
template <NamedEnum E, typename Spec>
ConfigKey<Spec> names_key(std::string name, std::vector<E> Spec::*member, NameNoun noun, std::string if_empty,
                          std::string help)
{
  KeyDoc doc = other_doc(std::move(name), "list of names", enum_name_list<E>() + ", each once", std::move(help));
  doc.choices = enum_name_vector<E>();
  return {std::move(doc),
          [member, noun, if_empty](MapReader& m, const std::string& key, Spec& spec) {
            return read_list(m, key, if_empty, spec.*member,
                             [&](const ConfigNode& item, const std::string& item_key,
                                 const std::vector<E>& listed) -> std::optional<E> {
                               const auto value = item.is_scalar() ? parse_enum<E>(item.scalar) : std::nullopt;
                               if (!value)
                                 m.checker().error(item, item_key,
                                                   "unknown " + noun.one + "; valid " + noun.many + ": " +
                                                       enum_name_list<E>());
                               else if (std::find(listed.begin(), listed.end(), *value) != listed.end())
                                 m.checker().error(item, item_key, noun.one + " listed twice");
                               else
                                 return value;
                               return std::nullopt;
                             });
          },
          [member](const Spec& spec) {
            Json names = Json::array();
            for (const E value : spec.*member)
              names.push_back(echo_value(value));
            return names;
          }};
}

// How a map from names to numbers is read: the names given replace their own defaults (Update),
// or the names given are the whole and their numbers are shares (Shares: the others are 0, the
// numbers must sum to 1, and the echo leaves the zeros out).
enum class NamedNumbers : std::uint8_t { Update, Shares };

// What the numbers of a map from names are: their range, unit, and what one of them means.
struct NamedNumber {
  NumberRange range;
  std::string unit;
  std::string help; // of one number: "the detection delay of a failure category"
};

// `key: {name: number, ...}`, the names those of E, the numbers held in `member` by the enum's order.
template <NamedEnum E, typename Spec, std::size_t N>
ConfigKey<Spec> numbers_by_name_key(std::string name, std::array<double, N> Spec::*member, NamedNumbers how,
                                    NameNoun noun, NamedNumber number, std::string help)
{
  static_assert(N == enum_values<E>().size(), "one number per name of the enum");
  const bool shares = how == NamedNumbers::Shares;
  const std::string placeholder = "<" + noun.one.substr(noun.one.rfind(' ') + 1) + ">";
  return {other_doc(std::move(name), "map of numbers", noun.many + (shares ? ", shares summing to 1" : ""),
                    std::move(help)),
          [member, shares, noun, number](MapReader& m, const std::string& key, Spec& spec) {
            ConfigChecker& checker = m.checker();
            const ConfigNode& node = *m.get(key);
            const std::string path = m.key_of(key);
            if (!MapReader(checker, &node, path).ok()) // its keys are names, checked below
              return false;
            std::array<double, N> values = shares ? std::array<double, N>{} : spec.*member;
            const bool ok = read_by_name<E>(checker, node, path, noun,
                                            [&](E value, const ConfigNode& entry, const std::string& entry_key) {
                                              const auto v = checker.number(entry, entry_key, number.range);
                                              if (v)
                                                values[static_cast<std::size_t>(value)] = *v;
                                              return v.has_value();
                                            });
            if (!ok && shares)
              return false;
            if (shares) {
              double sum = 0;
              for (const double v : values)
                sum += v;
              if (std::abs(sum - 1) > 1e-6) {
                checker.error(node, path, noun.one + " shares must sum to 1; they sum to " + format_number(sum));
                return false;
              }
            }
            spec.*member = values;
            return ok;
          },
          [member, shares](const Spec& spec) {
            Json values = Json::object();
            for (const E value : enum_values<E>())
              if (const double v = (spec.*member)[static_cast<std::size_t>(value)]; !shares || v > 0)
                values[std::string(to_string(value))] = v;
            return values;
          },
          [member, placeholder, number](const std::string& path, const Spec& defaults) {
            return number_docs_by_name<E>(path, placeholder, number.range, number.unit, number.help,
                                          defaults.*member);
          }};
}

// Where a map from an enum's names to maps keeps the spec of each name: `slot` is the spec a name's
// keys are read into (made when the file names it), `find` the one the echo writes (nullptr for a
// name without one).
template <typename Spec, typename Sub, typename E>
struct NamedMaps {
  std::function<Sub&(Spec&, E)> slot;
  std::function<const Sub*(const Spec&, E)> find;
};

// `key: {name: {...}, ...}`, the names those of E, each a map of the keys `table` declares. An empty
// map is refused with `if_empty`, unless that is empty. The echo writes the names that have a spec,
// in the enum's order; the reference gives each key once, with each name's default where they differ.
template <NamedEnum E, typename Spec, typename Sub>
ConfigKey<Spec> maps_by_name_key(std::string name, const KeyTable<Sub>& table, NamedMaps<Spec, Sub, E> where,
                                 NameNoun noun, std::string if_empty, std::string help)
{
  const std::string placeholder = "<" + noun.one.substr(noun.one.rfind(' ') + 1) + ">";
  return {other_doc(std::move(name), "map of maps", enum_name_list<E>(), std::move(help)),
          [&table, where, noun, if_empty](MapReader& m, const std::string& key, Spec& spec) {
            ConfigChecker& checker = m.checker();
            const ConfigNode& node = *m.get(key);
            const std::string path = m.key_of(key);
            if (!MapReader(checker, &node, path).ok()) // its keys are names, checked below; empty is a map
              return false;
            if (node.entries.empty() && !if_empty.empty()) {
              checker.error(node, path, if_empty);
              return false;
            }
            return read_by_name<E>(checker, node, path, noun,
                                   [&](E value, const ConfigNode& entry, const std::string& entry_key) {
                                     return table.read_map(checker, &entry, entry_key, where.slot(spec, value));
                                   });
          },
          [&table, where](const Spec& spec) {
            Json maps = Json::object();
            for (const E value : enum_values<E>())
              if (const Sub* sub = where.find(spec, value))
                maps[std::string(to_string(value))] = table.echo(*sub);
            return maps;
          },
          [&table, where, placeholder](const std::string& path, const Spec& defaults) {
            const std::string under = join_key(path, placeholder);
            std::vector<std::pair<std::string, std::vector<KeyDoc>>> per_name;
            for (const E value : enum_values<E>())
              if (const Sub* sub = where.find(defaults, value))
                per_name.emplace_back(std::string(to_string(value)), table.docs(under, *sub));
            return per_name.empty() ? table.docs(under, Sub{}) : merge_docs_by_name(per_name);
          }};
}

} // namespace acmesim
