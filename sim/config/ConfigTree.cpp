#include "sim/config/ConfigTree.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

namespace acmesim {

// --- ConfigNode ------------------------------------------------------------------------------

const ConfigEntry* ConfigNode::find_entry(std::string_view key) const
{
  if (kind != Kind::Map)
    return nullptr;
  const auto it = std::find_if(entries.begin(), entries.end(), [&](const ConfigEntry& e) { return e.key == key; });
  return it == entries.end() ? nullptr : &*it;
}

const ConfigNode* ConfigNode::find(std::string_view key) const
{
  const ConfigEntry* entry = find_entry(key);
  return entry ? &entry->value : nullptr;
}

ConfigNode* ConfigNode::find(std::string_view key)
{
  return const_cast<ConfigNode*>(std::as_const(*this).find(key));
}

ConfigNode& ConfigNode::set(const std::string& key, const std::string& key_where, ConfigNode value)
{
  for (auto& entry : entries)
    if (entry.key == key) {
      entry.key_where = key_where;
      entry.value = std::move(value);
      return entry.value;
    }
  entries.push_back({key, key_where, std::move(value)});
  return entries.back().value;
}

void ConfigNode::erase(std::string_view key)
{
  std::erase_if(entries, [&](const ConfigEntry& e) { return e.key == key; });
}

std::string ConfigNode::text() const
{
  switch (kind) {
  case Kind::Scalar:
    return scalar;
  case Kind::Map:
    return "<map>";
  case Kind::List:
    return "<list>";
  case Kind::Null:
    break;
  }
  return "<empty>";
}

ConfigNode ConfigNode::make_scalar(std::string text, std::string where)
{
  ConfigNode node;
  node.kind = Kind::Scalar;
  node.scalar = std::move(text);
  node.where = std::move(where);
  return node;
}

ConfigNode ConfigNode::make_map(std::string where)
{
  ConfigNode node;
  node.kind = Kind::Map;
  node.where = std::move(where);
  return node;
}

// --- positions -------------------------------------------------------------------------------

std::string SourceLabel::where(int line, int column) const
{
  if (style == Style::Fixed || line < 0)
    return name;
  std::string out = name + ":" + std::to_string(line + 1);
  if (style == Style::LineColumn && column >= 0)
    out += ":" + std::to_string(column + 1);
  return out;
}

std::string join_key(const std::string& parent, std::string_view key)
{
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

// --- YAML -> ConfigNode ----------------------------------------------------------------------

namespace {

std::string where_of(const YAML::Node& node, const SourceLabel& label, const std::string& fallback)
{
  const YAML::Mark mark = node.Mark();
  return mark.line < 0 ? fallback : label.where(mark.line, mark.column);
}

// Aliases let a few lines of YAML expand without limit (a self-referencing alias, or the
// "billion laughs" pattern): conversion stops at a depth and a node count no scenario reaches.
struct ConvertBudget {
  int depth = 0;
  std::size_t nodes_left = 1'000'000;
  bool reported = false;
};
constexpr int MAX_DEPTH = 64;

ConfigNode convert(const YAML::Node& yaml, const std::string& path, const SourceLabel& label,
                   const std::string& fallback_where, DiagnosticList& diags, ConvertBudget& budget)
{
  ConfigNode node;
  node.where = where_of(yaml, label, fallback_where);
  if (budget.depth >= MAX_DEPTH || budget.nodes_left == 0) {
    if (!budget.reported)
      diags.add(node.where, path, "",
                "the document nests deeper than 64 levels or holds over a million values (a recursive YAML alias?)");
    budget.reported = true;
    return node;
  }
  --budget.nodes_left;
  ++budget.depth;
  switch (yaml.Type()) {
  case YAML::NodeType::Scalar:
    node.kind = ConfigNode::Kind::Scalar;
    node.scalar = yaml.Scalar();
    break;
  case YAML::NodeType::Sequence:
    node.kind = ConfigNode::Kind::List;
    for (std::size_t i = 0; i < yaml.size(); ++i)
      node.items.push_back(convert(yaml[i], join_key(path, std::to_string(i)), label, node.where, diags, budget));
    break;
  case YAML::NodeType::Map: {
    node.kind = ConfigNode::Kind::Map;
    // Each key's position among the entries: a map of many keys is checked for duplicates in
    // linear time.
    std::unordered_map<std::string, std::size_t> seen;
    for (auto it = yaml.begin(); it != yaml.end(); ++it) {
      const std::string key_where = where_of(it->first, label, node.where);
      if (!it->first.IsScalar()) {
        diags.add(key_where, path, "", "a key must be a plain word, not a map or a list");
        continue;
      }
      const std::string key = it->first.Scalar();
      const std::string key_path = join_key(path, key);
      if (const auto first = seen.find(key); first != seen.end()) {
        diags.add(key_where, key_path, "",
                  "duplicate key (already set at " + node.entries[first->second].key_where + ")");
        continue;
      }
      seen.emplace(key, node.entries.size());
      ConfigNode value = convert(it->second, key_path, label, key_where, diags, budget);
      // yaml-cpp marks an empty value (`key:`) at the token after it, often the next line.
      if (value.kind == ConfigNode::Kind::Null)
        value.where = key_where;
      node.entries.push_back({key, key_where, std::move(value)});
    }
    break;
  }
  case YAML::NodeType::Null:
  case YAML::NodeType::Undefined:
    break;
  }
  --budget.depth;
  return node;
}

// The 0-based line of a document-start marker (`---` at the start of a line) that follows any
// content, if there is one: a document's own leading marker is allowed.
std::optional<std::size_t> second_document_line(std::string_view text)
{
  bool content = false;
  std::size_t line = 0;
  for (std::size_t start = 0; start < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view l = text.substr(start, end - start);
    const bool marker = l.starts_with("---") && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
    if (marker && content)
      return line;
    const std::size_t first = l.find_first_not_of(" \t\r");
    if (marker ? l.find_first_not_of(" \t\r", 3) != std::string_view::npos
               : first != std::string_view::npos && l[first] != '#')
      content = true;
    start = end + 1;
  }
  return std::nullopt;
}

// Parses `text` as one YAML value; throws YAML::ParserException on a syntax error.
ConfigNode load(std::string_view text, const std::string& path, const SourceLabel& label, DiagnosticList& diags)
{
  // A second document (after `---`) would otherwise be read by nobody, silently. It is found in
  // the text: yaml-cpp's LoadAll can loop forever on some malformed input (found by fuzzing).
  if (const auto second = second_document_line(text))
    diags.add(label.where(static_cast<int>(*second), 0), path, "",
              "a second YAML document starts here (---); the file must hold one");
  ConvertBudget budget;
  return convert(YAML::Load(std::string(text)), path, label, label.name, diags, budget);
}

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

} // namespace

std::optional<ConfigNode> parse_config(std::string_view text, const SourceLabel& label, DiagnosticList& diags)
{
  try {
    return load(text, "", label, diags);
  } catch (const YAML::DeepRecursion& e) {
    diags.add(label.where(e.mark.line, e.mark.column), "", "", "the document nests deeper than YAML can be read here");
  } catch (const YAML::ParserException& e) {
    diags.add(label.where(e.mark.line, e.mark.column), "", "", "YAML syntax error: " + e.msg);
  }
  return std::nullopt;
}

// --- overrides -------------------------------------------------------------------------------

namespace {

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
  ConfigNode value;
  try {
    value = load(o->value_text, o->key, {o->where, SourceLabel::Style::Fixed}, diags);
  } catch (const YAML::ParserException& e) {
    diags.add(o->where, o->key, o->value_text, "the value is not valid YAML: " + e.msg);
    return;
  }
  // Edit a copy, so that an override failing half-way (after creating maps) changes nothing.
  ConfigNode edited = root;
  if (set_at_path(edited, *o, std::move(value), fallback, diags))
    root = std::move(edited);
}

// --- merging ---------------------------------------------------------------------------------

void deep_merge(ConfigNode& base, const ConfigNode& over)
{
  if (!base.is_map() || !over.is_map()) {
    base = over;
    return;
  }
  // The user's map is what a message about the merged map should point at.
  base.where = over.where;
  for (const auto& entry : over.entries) {
    const auto same_key = [&](const ConfigEntry& e) { return e.key == entry.key; };
    const auto it = std::find_if(base.entries.begin(), base.entries.end(), same_key);
    if (it == base.entries.end()) {
      base.entries.push_back(entry);
      continue;
    }
    deep_merge(it->value, entry.value);
    // The key is now the overlay's (an unknown-key error must point at the user's line).
    it->key_where = entry.key_where;
  }
}

} // namespace acmesim
