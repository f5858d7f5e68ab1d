#include "sim/keys/KeyDoc.hpp"

#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>

namespace acmesim {

KeyDoc number_doc(std::string name, const NumberRange& range, std::string unit, std::string help)
{
  const std::string bounds = range.bounds();
  return KeyDoc{std::move(name), range.integer ? "integer" : "number", std::move(unit),
                bounds.empty() ? "any" : bounds,  "", std::move(help), range, {}, {}};
}

KeyDoc choice_doc(std::string name, std::vector<std::string> choices, std::string help)
{
  return KeyDoc{std::move(name), "name", NO_UNIT, join_names(choices), "", std::move(help), std::nullopt,
                std::move(choices), {}};
}

KeyDoc other_doc(std::string name, std::string type, std::string accepts, std::string help)
{
  return KeyDoc{std::move(name), std::move(type), NO_UNIT, std::move(accepts), "", std::move(help), std::nullopt, {},
                {}};
}

std::string value_text(const Json& value)
{
  if (value.is_string())
    return value.get<std::string>().empty() ? "\"\"" : value.get<std::string>();
  if (value.is_number_float()) // six significant digits: a default of 20738.461538... reads as 20738.5
    return format_number(std::strtod(fmt::format("{:.6g}", value.get<double>()).c_str(), nullptr));
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const auto& item : value)
      items.push_back(value_text(item));
    return "[" + join_names(items) + "]";
  }
  if (value.is_object()) {
    std::vector<std::string> entries;
    for (const auto& [key, item] : value.items())
      entries.push_back(key + ": " + value_text(item));
    return "{" + join_names(entries) + "}";
  }
  return value.dump(); // integers, true and false
}

void describe_default(KeyDoc& doc, const Json& value)
{
  doc.default_value = value_text(value);
  if (value.is_primitive())
    doc.default_values = {value};
}

namespace {

// "60 (nccl_timeout: 600)" when one value is shared by several names, else "a: 1; b: 2".
std::string merged_default(const std::vector<std::pair<std::string, std::string>>& by_name)
{
  std::map<std::string, int> counts;
  for (const auto& [name, text] : by_name)
    ++counts[text];
  // The most common value; among equals, the first name's.
  std::string common = by_name.front().second;
  for (const auto& [name, text] : by_name)
    if (counts[text] > counts[common])
      common = text;
  if (counts[common] == static_cast<int>(by_name.size()))
    return common;
  std::vector<std::string> others;
  for (const auto& [name, text] : by_name)
    if (counts[common] == 1 || text != common)
      others.push_back(name + ": " + text);
  const std::string listed = fmt::to_string(fmt::join(others, "; "));
  return counts[common] == 1 ? listed : common + " (" + listed + ")";
}

} // namespace

std::vector<KeyDoc> merge_docs_by_name(const std::vector<std::pair<std::string, std::vector<KeyDoc>>>& per_name)
{
  if (per_name.empty())
    return {};
  std::vector<KeyDoc> merged = per_name.front().second;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    std::vector<std::pair<std::string, std::string>> by_name;
    merged[i].default_values.clear();
    for (const auto& [name, docs] : per_name) {
      by_name.emplace_back(name, docs[i].default_value);
      const auto& values = docs[i].default_values;
      merged[i].default_values.insert(merged[i].default_values.end(), values.begin(), values.end());
    }
    merged[i].default_value = merged_default(by_name);
  }
  return merged;
}

} // namespace acmesim
