#include "sim/keys/ConfigTree.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
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

// Whether a line is a YAML document marker ("---" starts a document, "..." ends one): the three
// characters at its start, then nothing or a blank.
bool is_document_marker(std::string_view line, std::string_view marker)
{
  return line.starts_with(marker) &&
         (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
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
    const bool marker = is_document_marker(l, "---");
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

// The 0-based line of the first text after a document end marker ("..." at the start of a line),
// which yaml-cpp passes over without a word; comments and a following "---" (reported as a second
// document) are not such text.
std::optional<std::size_t> after_end_marker_line(std::string_view text)
{
  bool ended = false;
  std::size_t line = 0;
  for (std::size_t start = 0; start < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view l = text.substr(start, end - start);
    start = end + 1;
    if (!ended) {
      ended = is_document_marker(l, "...");
      continue;
    }
    if (is_document_marker(l, "---"))
      return std::nullopt;
    const std::size_t first = l.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && l[first] != '#' && !is_document_marker(l, "..."))
      return line;
  }
  return std::nullopt;
}

// yaml-cpp builds its whole tree before the conversion budget applies, at about 700 bytes a
// node, so the text is first bounded by what starts nodes: flow brackets and commas, and the
// block indicators "- ", ": " and "? ", outside comments and quoted strings. Every node but the
// first needs one of these, and each brings about two (a key and its value, a list and its first
// item), so this many keep yaml-cpp's tree near 150 MB at most. Campaign lists, the longest
// legitimate inputs, hold at most 10,000 values.
constexpr std::size_t MAX_NODE_MARKERS = 100'000;

// The 0-based line at which the text passes MAX_NODE_MARKERS, if it does.
std::optional<std::size_t> too_many_nodes_line(std::string_view text)
{
  enum class In { Plain, Comment, DoubleQuoted, SingleQuoted };
  In in = In::Plain;
  std::size_t markers = 0;
  std::size_t line = 0;
  const auto blank = [&](std::size_t i) {
    return i >= text.size() || text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      if (in == In::Comment)
        in = In::Plain;
      continue;
    }
    switch (in) {
    case In::Comment:
      break;
    case In::DoubleQuoted:
      if (c == '\\')
        ++i; // an escaped character, a quote included
      else if (c == '"')
        in = In::Plain;
      break;
    case In::SingleQuoted:
      if (c == '\'' && i + 1 < text.size() && text[i + 1] == '\'')
        ++i; // '' is a quote inside the string
      else if (c == '\'')
        in = In::Plain;
      break;
    case In::Plain: {
      // A quote opens a string only where a scalar can start; inside a plain word it is a letter.
      const bool scalar_start = i == 0 || blank(i - 1) || std::string_view("[{,:").find(text[i - 1]) != std::string_view::npos;
      if (c == '#' && (i == 0 || blank(i - 1)))
        in = In::Comment;
      else if ((c == '"' || c == '\'') && scalar_start)
        in = c == '"' ? In::DoubleQuoted : In::SingleQuoted;
      else if (c == ',' || c == '[' || c == '{' || ((c == '-' || c == ':' || c == '?') && blank(i + 1)))
        if (++markers > MAX_NODE_MARKERS)
          return line;
      break;
    }
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<ConfigNode> parse_yaml_value(std::string_view text, const std::string& path, const SourceLabel& label,
                                           DiagnosticList& diags)
{
  // A second document (after `---`) would otherwise be read by nobody, silently. It is found in
  // the text: yaml-cpp's LoadAll can loop forever on some malformed input (found by fuzzing).
  if (const auto second = second_document_line(text))
    diags.add(label.where(static_cast<int>(*second), 0), path, "",
              "a second YAML document starts here (---); the file must hold one");
  if (const auto after = after_end_marker_line(text))
    diags.add(label.where(static_cast<int>(*after), 0), path, "",
              "text after the document's end marker (...) would not be read; remove the marker or the text");
  if (const auto line = too_many_nodes_line(text)) {
    diags.add(label.where(static_cast<int>(*line), 0), path, "",
              "the document holds over " + std::to_string(MAX_NODE_MARKERS) +
                  " values by here, more than any scenario, sweep or plan needs; it is not read");
    return std::nullopt;
  }
  ConvertBudget budget;
  return convert(YAML::Load(std::string(text)), path, label, label.name, diags, budget);
}

std::optional<ConfigNode> parse_config(std::string_view text, const SourceLabel& label, DiagnosticList& diags)
{
  try {
    return parse_yaml_value(text, "", label, diags);
  } catch (const YAML::DeepRecursion& e) {
    diags.add(label.where(e.mark.line, e.mark.column), "", "", "the document nests deeper than YAML can be read here");
  } catch (const YAML::ParserException& e) {
    diags.add(label.where(e.mark.line, e.mark.column), "", "", "YAML syntax error: " + e.msg);
  }
  return std::nullopt;
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
