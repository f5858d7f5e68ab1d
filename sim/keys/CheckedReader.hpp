#pragma once
// Typed reading of a ConfigNode tree that records problems instead of throwing. Each problem
// becomes a Diagnostic with the node's origin, the full dotted key, the value as written and
// what was expected, so one pass over a scenario reports everything that is wrong with it.
#include "models/common/EnumNames.hpp"
#include "models/common/Text.hpp"
#include "sim/keys/ConfigTree.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace acmesim {

// The values a numeric field accepts: [min, max], or (min, max] if min_exclusive.
struct NumberRange {
  double min = -std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  double max = std::numeric_limits<double>::infinity(); // >= 1e300 counts as unbounded (ParamSpec)
  bool integer = false;
  // With min == 0: positive values below this are refused too (0 means "none"; a tiny positive
  // value is a typo). 0: no such gap.
  double floor_above_zero = 0;

  bool contains(double value) const;
  // "an integer >= 1", "a number > 0", "a number between 0 and 1".
  std::string describe() const;
  // The bounds alone: ">= 1", "> 0", "between 0 and 1"; empty when there are none.
  std::string bounds() const;
};

// A finite number as a scenario may write it (surrounding spaces, a leading '+'); nullopt otherwise.
std::optional<double> parse_double(std::string_view text);

NumberRange any_number();
NumberRange at_least(double min);
NumberRange positive();
NumberRange positive_up_to(double max); // (0, max]: a size or duration with a bound against unit errors
NumberRange integer_at_least(double min);
// Integers in [min, max]: sizes get an upper bound so that a typo cannot exhaust memory.
NumberRange integer_between(double min, double max);
NumberRange number_between(double min, double max);

class ConfigChecker {
public:
  // `base_dir`: the directory the document's relative paths start at (a scenario file's own).
  explicit ConfigChecker(DiagnosticList& diags, std::string base_dir = ".")
      : diags_(diags), base_dir_(std::move(base_dir))
  {
  }

  DiagnosticList& diagnostics() { return diags_; }
  // `path` as written in the document, made absolute or relative to base_dir.
  std::string resolve(const std::string& path) const;

  // A diagnostic about `node`: its origin and how it is written.
  void error(const ConfigNode& node, const std::string& key, const std::string& message);
  void error(const std::string& where, const std::string& key, const std::string& value, const std::string& message);

  // Each returns nullopt after reporting a value of the wrong kind or out of range.
  std::optional<double> number(const ConfigNode& node, const std::string& key, const NumberRange& range);
  std::optional<int> integer(const ConfigNode& node, const std::string& key, const NumberRange& range);
  std::optional<std::uint64_t> unsigned64(const ConfigNode& node, const std::string& key);
  std::optional<std::string> string(const ConfigNode& node, const std::string& key); // non-empty scalar
  bool expect_map(const ConfigNode& node, const std::string& key);
  bool expect_list(const ConfigNode& node, const std::string& key);

private:
  DiagnosticList& diags_;
  std::string base_dir_;
};

// Reports (false) a file at `path` that does not exist, cannot be read, or is a directory or a
// device (/dev/zero would be read without end), calling it `what` ("trace file"); `hint` is added
// to the message of a file not found.
bool check_readable_file(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                         const std::string& path, const std::string& what, const std::string& hint = "");

// One map of the tree. Given the keys it accepts, it reports every other key as unknown (naming
// the valid ones); the typed reads then assign a field only if its key is present and valid, so
// the field's default stays otherwise.
class MapReader {
public:
  // `node` == nullptr: the section is absent; nothing is read and nothing reported.
  MapReader(ConfigChecker& checker, const ConfigNode* node, std::string key,
            const std::vector<std::string>& valid_keys);
  // Without a key list the caller checks the keys itself (their set depends on other values).
  MapReader(ConfigChecker& checker, const ConfigNode* node, std::string key);

  bool ok() const { return map_ != nullptr; } // present and a map
  const ConfigNode* node() const { return map_; }
  const std::string& key() const { return key_; }
  std::string key_of(std::string_view child) const { return join_key(key_, child); }
  ConfigChecker& checker() { return checker_; }

  const ConfigNode* get(std::string_view child) const;
  // Reports the key as missing (at the map's own position) unless it is there.
  bool require(std::string_view child);

  // Return whether `out` was assigned.
  bool read(std::string_view child, int& out, const NumberRange& range);
  bool read(std::string_view child, double& out, const NumberRange& range);
  bool read(std::string_view child, std::uint64_t& out);
  bool read(std::string_view child, std::string& out);
  // `true` or `false` only: YAML's other spellings (yes, on) are refused so a file reads one way.
  bool read(std::string_view child, bool& out);
  bool read_choice(std::string_view child, std::string& out, const std::vector<std::string>& choices);
  // One of the enum's declared names (EnumNames.hpp).
  template <NamedEnum E>
  bool read(std::string_view child, E& out)
  {
    std::string name;
    if (!read_choice(child, name, enum_name_vector<E>()))
      return false;
    out = *parse_enum<E>(name);
    return true;
  }

private:
  // Assigns `out` from the child's value checked by `check(node, full key)`, if it is present and good.
  template <typename T, typename Check>
  bool assign(std::string_view child, T& out, Check check);

  ConfigChecker& checker_;
  const ConfigNode* map_ = nullptr;
  std::string key_;
};

// Reads the list at `child` item by item: `read_item(item, full key of the item, items read so
// far)` returns the item, or nullopt after reporting it. `out` is replaced only when every item
// is good. An empty list is reported with `if_empty`, or accepted if that is empty. False when
// the list is absent or anything was wrong.
template <typename T, typename ReadItem>
bool read_list(MapReader& m, std::string_view child, const std::string& if_empty, std::vector<T>& out,
               ReadItem read_item)
{
  const ConfigNode* node = m.get(child);
  const std::string key = m.key_of(child);
  if (!node || !m.checker().expect_list(*node, key))
    return false;
  if (node->items.empty() && !if_empty.empty()) {
    m.checker().error(*node, key, if_empty);
    return false;
  }
  std::vector<T> items;
  bool ok = true;
  for (std::size_t i = 0; i < node->items.size(); ++i) {
    std::optional<T> item = read_item(node->items[i], join_key(key, std::to_string(i)), std::as_const(items));
    if (item)
      items.push_back(std::move(*item));
    ok = ok && item.has_value();
  }
  if (ok)
    out = std::move(items);
  return ok;
}


} // namespace acmesim
