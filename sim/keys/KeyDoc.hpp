#pragma once
// What the key reference (`acmesim list keys`, docs/scenario-keys.md) says about one scenario
// key. ConfigKey.hpp builds these from the key declarations; nothing here is written by hand.
#include "sim/keys/CheckedReader.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace acmesim {

// Scenario values as the resolved-scenario echo writes them (summary.json keeps key order).
using Json = nlohmann::ordered_json;

// The unit of a value that has none (a name, a flag, a ratio).
inline constexpr const char* NO_UNIT = "-";
// What a map of declared keys accepts, and its default: those of the keys listed under it.
inline constexpr const char* MAP_KEYS = "the keys under it";
inline constexpr const char* MAP_DEFAULTS = "each key's own";

struct KeyDoc {
  // "cluster.fabric.leaf_radix"; placeholders stand for list indices (<i>) and for the names a
  // map is keyed by (<type>, <component>, <category>, ...).
  std::string path;
  std::string type;          // "integer", "number", "boolean", "string", "name", "path", "map", "list of ..."
  std::string unit;          // NO_UNIT when the value has none
  std::string accepts;       // "between 2 and 4096", "sync, async", ...
  std::string default_value; // what a scenario that leaves the key out gets, "required", or how it is derived
  std::string help;
  std::optional<NumberRange> numbers; // a number's accepted range
  std::vector<std::string> choices;   // a name's accepted names
  // The default as the echo writes it, when it is a plain value (one per name for keys repeated
  // under the names of a map), so that tests can check it against `numbers` and `choices`.
  std::vector<Json> default_values;
};

// The reference line of a number accepted within `range`.
KeyDoc number_doc(std::string name, const NumberRange& range, std::string unit, std::string help);
// The reference line of a value that is one of `choices`.
KeyDoc choice_doc(std::string name, std::vector<std::string> choices, std::string help);
// The reference line of any other value: a string, a path, a map, a list.
KeyDoc other_doc(std::string name, std::string type, std::string accepts, std::string help);

// A value as the reference shows it: scalars as written in a scenario (numbers to six
// significant digits), lists as [a, b] and maps as {key: value}.
std::string value_text(const Json& value);
// Sets the default of `doc` from the value the echo writes for the spec's defaults.
void describe_default(KeyDoc& doc, const Json& value);

// Keys repeated under each name of a map (failure components, job types, ...): the reference
// lines of every name (`per_name`: name, lines; the lines of every name have the same paths)
// merged into one line per key, whose default gives each name's value where they differ.
std::vector<KeyDoc> merge_docs_by_name(const std::vector<std::pair<std::string, std::vector<KeyDoc>>>& per_name);

} // namespace acmesim
