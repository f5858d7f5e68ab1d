// `--set key.path=value` overrides applied to a parsed scenario (ConfigTree.hpp: apply_override):
// splitting the option, walking (and creating) the path, list indices, the value read as YAML.
#include "sim/keys/ConfigTree.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// --- overrides -------------------------------------------------------------------------------

namespace {

std::string trim(std::string_view s)
{
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos)
    return {};
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

std::optional<std::size_t> parse_index(std::string_view s)
{
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty())
    return std::nullopt;
  return index;
}

std::vector<std::string> split_key(const std::string& key)
{
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos)
      return parts;
    start = dot + 1;
  }
}


// One "a.b.c=value" option, split.
struct Override {
  std::string where; // "--set a.b.c=value": where diagnostics about it point
  std::string key;
  std::vector<std::string> parts; // the key's components
  std::string value_text;
};

std::optional<Override> parse_override(const std::string& text, DiagnosticList& diags)
{
  Override o{"--set " + text, {}, {}, {}};
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) {
    diags.add(o.where, "", "", "expected key.path=value");
    return std::nullopt;
  }
  o.key = trim(std::string_view(text).substr(0, eq));
  o.value_text = text.substr(eq + 1);
  if (o.key.empty()) {
    diags.add(o.where, "", o.value_text, "expected key.path=value; the key is empty");
    return std::nullopt;
  }
  o.parts = split_key(o.key);
  if (std::any_of(o.parts.begin(), o.parts.end(), [](const std::string& p) { return p.empty(); })) {
    diags.add(o.where, o.key, o.value_text, "the key path has an empty component");
    return std::nullopt;
  }
  return o;
}

// The first `count` components of the override's key, joined: "a.b".
std::string path_prefix(const Override& o, std::size_t count)
{
  std::string out;
  for (std::size_t i = 0; i < count; ++i)
    out = join_key(out, o.parts[i]);
  return out;
}

// The child `o.parts[i]` of a map, created if missing; nullptr after reporting a list that is
// not there to index.
ConfigNode* map_child(ConfigNode& map, const Override& o, std::size_t i, const OverrideFallback& fallback,
                      DiagnosticList& diags)
{
  if (ConfigNode* child = map.find(o.parts[i]))
    return child;
  ConfigNode created = ConfigNode::make_map(o.where);
  if (parse_index(o.parts[i + 1])) {
    // The next component indexes a list: only a list someone else supplies can be indexed.
    const std::vector<std::string> list_path(o.parts.begin(), o.parts.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    const ConfigNode* supplied = fallback ? fallback(list_path) : nullptr;
    if (!supplied) {
      diags.add(o.where, o.key, o.value_text, "cannot index '" + path_prefix(o, i + 1) + "': it is not set");
      return nullptr;
    }
    created = *supplied;
  }
  return &map.set(o.parts[i], o.where, std::move(created));
}

// The item `o.parts[i]` of a list; nullptr after reporting an index that is not in it.
ConfigNode* list_item(ConfigNode& list, const Override& o, std::size_t i, DiagnosticList& diags)
{
  const auto index = parse_index(o.parts[i]);
  if (index && *index < list.items.size())
    return &list.items[*index];
  const std::size_t n = list.items.size();
  const std::string valid = n == 0 ? "it is empty" : "valid indices are 0 to " + std::to_string(n - 1);
  diags.add(o.where, o.key, o.value_text,
            "'" + o.parts[i] + "' is not an index into the list '" + path_prefix(o, i) + "' (" + valid + ")");
  return nullptr;
}

// Sets `value` at the override's key path under `root`, creating missing maps on the way.
// False after reporting a path that cannot be followed (`root` may then be half-edited).
bool set_at_path(ConfigNode& root, const Override& o, ConfigNode value, const OverrideFallback& fallback,
                 DiagnosticList& diags)
{
  ConfigNode* node = &root;
  for (std::size_t i = 0; i < o.parts.size(); ++i) {
    const bool last = i + 1 == o.parts.size();
    // An empty value (`scheduler:`) is an empty map to set keys in.
    if (node->kind == ConfigNode::Kind::Null) {
      node->kind = ConfigNode::Kind::Map;
      node->where = o.where;
    }
    if (node->is_map() && last) {
      node->set(o.parts[i], o.where, std::move(value));
      return true;
    }
    if (node->is_map()) {
      node = map_child(*node, o, i, fallback, diags);
    } else if (node->is_list()) {
      node = list_item(*node, o, i, diags);
      if (node && last)
        *node = std::move(value);
    } else {
      diags.add(o.where, o.key, o.value_text,
                "'" + path_prefix(o, i) + "' is a single value (" + node->text() + "), so it has no key '" +
                    o.parts[i] + "'");
      return false;
    }
    if (!node)
      return false;
  }
  return true;
}

} // namespace

void apply_override(ConfigNode& root, const std::string& text, DiagnosticList& diags, const OverrideFallback& fallback)
{
  const std::optional<Override> o = parse_override(text, diags);
  if (!o)
    return;
  std::optional<ConfigNode> value;
  try {
    value = parse_yaml_value(o->value_text, o->key, {o->where, SourceLabel::Style::Fixed}, diags);
  } catch (const YAML::ParserException& e) {
    diags.add(o->where, o->key, o->value_text, "the value is not valid YAML: " + e.msg);
    return;
  }
  if (!value)
    return;
  // Edit a copy, so that an override failing half-way (after creating maps) changes nothing.
  ConfigNode edited = root;
  if (set_at_path(edited, *o, std::move(*value), fallback, diags))
    root = std::move(edited);
}

} // namespace acmesim
