#include "sim/config/ConfigTree.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>

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
  case YAML::NodeType::Map:
    node.kind = ConfigNode::Kind::Map;
    for (auto it = yaml.begin(); it != yaml.end(); ++it) {
      const std::string key_where = where_of(it->first, label, node.where);
      if (!it->first.IsScalar()) {
        diags.add(key_where, path, "", "a key must be a plain word, not a map or a list");
        continue;
      }
      const std::string key = it->first.Scalar();
      const std::string key_path = join_key(path, key);
      if (node.find_entry(key)) {
        diags.add(key_where, key_path, "", "duplicate key (already set at " + node.find_entry(key)->key_where + ")");
        continue;
      }
      ConfigNode value = convert(it->second, key_path, label, key_where, diags, budget);
      // yaml-cpp marks an empty value (`key:`) at the token after it, often the next line.
      if (value.kind == ConfigNode::Kind::Null)
        value.where = key_where;
      node.entries.push_back({key, key_where, std::move(value)});
    }
    break;
  case YAML::NodeType::Null:
  case YAML::NodeType::Undefined:
    break;
  }
  --budget.depth;
  return node;
}

// Parses `text` as one YAML value; throws YAML::ParserException on a syntax error.
ConfigNode load(std::string_view text, const std::string& path, const SourceLabel& label, DiagnosticList& diags)
{
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
  } catch (const YAML::ParserException& e) {
    diags.add(label.where(e.mark.line, e.mark.column), "", "", "YAML syntax error: " + e.msg);
  }
  return std::nullopt;
}

// --- overrides -------------------------------------------------------------------------------

void apply_override(ConfigNode& root, const std::string& text, DiagnosticList& diags, const OverrideFallback& fallback)
{
  const std::string where = "--set " + text;
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) {
    diags.add(where, "", "", "expected key.path=value");
    return;
  }
  const std::string key = trim(std::string_view(text).substr(0, eq));
  const std::string value_text = text.substr(eq + 1);
  if (key.empty()) {
    diags.add(where, "", value_text, "expected key.path=value; the key is empty");
    return;
  }
  const std::vector<std::string> parts = split_key(key);
  if (std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
    diags.add(where, key, value_text, "the key path has an empty component");
    return;
  }

  ConfigNode value;
  const SourceLabel label{where, SourceLabel::Style::Fixed};
  try {
    value = load(value_text, key, label, diags);
  } catch (const YAML::ParserException& e) {
    diags.add(where, key, value_text, "the value is not valid YAML: " + e.msg);
    return;
  }

  // Edit a copy, so that an override failing half-way (after creating maps) changes nothing.
  ConfigNode edited = root;
  ConfigNode* node = &edited;
  std::vector<std::string> walked; // the key path of `node`
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const bool last = i + 1 == parts.size();
    std::string here;
    for (const auto& w : walked)
      here = join_key(here, w);
    // An empty value (`scheduler:`) is an empty map to set keys in.
    if (node->kind == ConfigNode::Kind::Null) {
      node->kind = ConfigNode::Kind::Map;
      node->where = where;
    }
    if (node->is_map()) {
      if (last) {
        node->set(part, where, std::move(value));
        break;
      }
      ConfigNode* next = node->find(part);
      if (!next) {
        ConfigNode created = ConfigNode::make_map(where);
        if (parse_index(parts[i + 1])) {
          // The next component indexes a list: only a list someone else supplies can be indexed.
          std::vector<std::string> list_path = walked;
          list_path.push_back(part);
          const ConfigNode* supplied = fallback ? fallback(list_path) : nullptr;
          if (!supplied) {
            diags.add(where, key, value_text, "cannot index '" + join_key(here, part) + "': it is not set");
            return;
          }
          created = *supplied;
        }
        next = &node->set(part, where, std::move(created));
      }
      node = next;
    } else if (node->is_list()) {
      const auto index = parse_index(part);
      if (!index || *index >= node->items.size()) {
        const std::size_t n = node->items.size();
        const std::string valid = n == 0 ? "it is empty" : "valid indices are 0 to " + std::to_string(n - 1);
        diags.add(where, key, value_text,
                  "'" + part + "' is not an index into the list '" + here + "' (" + valid + ")");
        return;
      }
      if (last) {
        node->items[*index] = std::move(value);
        break;
      }
      node = &node->items[*index];
    } else {
      diags.add(where, key, value_text,
                "'" + here + "' is a single value (" + node->text() + "), so it has no key '" + part + "'");
      return;
    }
    walked.push_back(part);
  }
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
