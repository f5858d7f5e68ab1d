#pragma once
// A YAML document as a plain value tree in which every node remembers where it came from
// (a line of the scenario file, a line of an embedded preset, or a --set option).
//
// The scenario loader edits the document before checking it (applies overrides, merges cluster
// presets under the user's keys); diagnostics must still point at the text the user has to
// change. yaml-cpp nodes are shared, reference-counted views whose marks do not survive such
// edits, so the loader converts once and works on this tree instead.
#include "models/common/InputError.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct ConfigEntry;

struct ConfigNode {
  enum class Kind { Null, Scalar, Map, List };

  Kind kind = Kind::Null;
  std::string scalar;               // Scalar
  std::vector<ConfigEntry> entries; // Map, in document order
  std::vector<ConfigNode> items;    // List
  std::string where;                // "scenario.yaml:3:5", "preset kalos:12" or "--set a.b=1"

  bool is_map() const { return kind == Kind::Map; }
  bool is_list() const { return kind == Kind::List; }
  bool is_scalar() const { return kind == Kind::Scalar; }

  // Map lookups; nullptr if absent or if this is not a map.
  const ConfigEntry* find_entry(std::string_view key) const;
  const ConfigNode* find(std::string_view key) const;
  ConfigNode* find(std::string_view key);
  // Replaces the value of `key` in place (keeping its position), or appends it; returns the value.
  ConfigNode& set(const std::string& key, const std::string& key_where, ConfigNode value);
  void erase(std::string_view key);
  // How diagnostics show the node: the scalar text, or "<map>", "<list>", "<empty>".
  std::string text() const;

  static ConfigNode make_scalar(std::string text, std::string where);
  static ConfigNode make_map(std::string where);
};

struct ConfigEntry {
  std::string key;
  std::string key_where;
  ConfigNode value;
};

// How the positions of one YAML text are written in diagnostics.
struct SourceLabel {
  enum class Style {
    LineColumn, // "scenario.yaml:12:3" (user files)
    Line,       // "preset kalos:12" (embedded presets)
    Fixed,      // "--set a.b=1" (overrides: one line, the option itself)
  };
  std::string name;
  Style style = Style::LineColumn;

  // `line` and `column` are 0-based as in yaml-cpp marks; negative means unknown.
  std::string where(int line, int column) const;
};

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
std::string join_key(const std::string& parent, std::string_view key);

// Parses `text` as one YAML value whose keys sit under `path` (for messages); throws
// YAML::ParserException on a syntax error. parse_config reports that instead. A text of more
// values than any input needs is added to `diags` and not parsed (nullopt): yaml-cpp would
// build all of it first.
std::optional<ConfigNode> parse_yaml_value(std::string_view text, const std::string& path, const SourceLabel& label,
                                           DiagnosticList& diags);

// Parses `text`. A syntax error is added to `diags` with its line and column and yields
// nullopt; duplicate keys are added to `diags` too (the first occurrence is kept).
std::optional<ConfigNode> parse_config(std::string_view text, const SourceLabel& label, DiagnosticList& diags);

// Supplies the current value of a node an override must index into but the document does not
// spell out (`path` is the node's key path); nullptr if there is none. The scenario loader uses
// it to take cluster.pods from a preset, so `--set cluster.pods.1.nodes=10` works on `preset: acme`.
using OverrideFallback = std::function<const ConfigNode*(const std::vector<std::string>& path)>;

// Applies one "a.b.c=value" override: the value is parsed as YAML and every node of it is
// marked "--set <text>". Numeric components index lists; missing maps on the way are created.
// A malformed override is added to `diags` and leaves `root` unchanged.
void apply_override(ConfigNode& root, const std::string& text, DiagnosticList& diags,
                    const OverrideFallback& fallback = {});

// Lays `over` on top of `base`: where both are maps, keys merge one by one (recursively);
// anything else (scalars, lists, a map over a non-map) replaces the base value.
void deep_merge(ConfigNode& base, const ConfigNode& over);

} // namespace acmesim
