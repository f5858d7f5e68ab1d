#include "sim/config/KeyReference.hpp"

#include "sim/config/DatasetCatalogueFile.hpp"
#include "sim/config/ScenarioKeys.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

namespace acmesim {

namespace {

const char* const REGENERATE = "build/acmesim list keys --markdown > docs/scenario-keys.md";

// What the placeholders in key paths stand for.
const std::array<std::pair<const char*, const char*>, 6> PLACEHOLDERS{{
    {"<i>", "an index in a list (0, 1, ...)"},
    {"<type>", "a job type"},
    {"<state>", "a job state"},
    {"<component>", "a failure component"},
    {"<category>", "a failure category"},
    {"<node>", "a node name of the cluster"},
}};

// "Placeholders in key paths: <i> an index in a list, ...", each placeholder between `quote`s.
std::string placeholders(const char* quote)
{
  std::vector<std::string> meanings;
  for (const auto& [placeholder, meaning] : PLACEHOLDERS)
    meanings.push_back(fmt::format("{0}{1}{0} {2}", quote, placeholder, meaning));
  return "Placeholders in key paths: " + join_names(meanings) + ".";
}

struct KeyGroup {
  std::string title;
  std::vector<KeyDoc> keys;
};

// The top-level keys, then the keys of each section, then those of catalogue files.
std::vector<KeyGroup> key_groups()
{
  std::vector<KeyGroup> groups{{"top level", {}}};
  for (KeyDoc& doc : scenario_key_docs()) {
    const auto dot = doc.path.find('.');
    if (dot == std::string::npos) {
      groups.front().keys.push_back(std::move(doc));
      continue;
    }
    const std::string section = doc.path.substr(0, dot);
    if (groups.back().title != section)
      groups.push_back({section, {}});
    groups.back().keys.push_back(std::move(doc));
  }
  groups.push_back({"dataset catalogue files (evaluation.catalogue)", catalogue_key_docs()});
  return groups;
}

// A table cell: nothing in it that Markdown would read as a column or an HTML tag (`pod<i>`).
std::string cell(const std::string& text)
{
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts_tag = i + 1 < text.size() && (std::isalpha(static_cast<unsigned char>(text[i + 1])) ||
                                                     std::string_view("/!?").find(text[i + 1]) != std::string_view::npos);
    if (text[i] == '|')
      out += "\\|";
    else if (text[i] == '<' && starts_tag)
      out += "&lt;";
    else
      out += text[i];
  }
  return out;
}

} // namespace

std::string key_reference_text()
{
  std::string out =
      fmt::format("Every scenario key (as Markdown: acmesim list keys --markdown). {}\n", placeholders(""));
  for (const auto& group : key_groups()) {
    out += fmt::format("\n{}:\n", group.title);
    for (const auto& doc : group.keys) {
      const std::string unit = doc.unit == NO_UNIT ? "" : ", " + doc.unit;
      out += fmt::format("  {} ({}{}): {}; default: {}\n      {}\n", doc.path, doc.type, unit, doc.accepts,
                         doc.default_value, doc.help);
    }
  }
  return out;
}

std::string key_reference_markdown()
{
  std::string out = fmt::format(
      "# Scenario keys\n\n"
      "Every key a scenario file may set, with its type, unit, the values it accepts, its default and what it "
      "means; then the keys of dataset catalogue files. Generated from the key declarations and the policy "
      "registrations (do not edit; `acmesim list keys` prints the same for a terminal):\n\n"
      "    {}\n\n"
      "The test `docs: scenario-keys.md is what acmesim list keys --markdown prints` fails when this file is "
      "stale. {} A unit of `-` means the value has none. Defaults are shown to six significant digits; where "
      "a default is not a plain value, its cell says how it is found.\n",
      REGENERATE, placeholders("`"));
  for (const auto& group : key_groups()) {
    out += fmt::format("\n## {}\n\n| key | type | unit | accepts | default | meaning |\n|---|---|---|---|---|---|\n",
                       group.title);
    for (const auto& doc : group.keys)
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", doc.path, cell(doc.type), cell(doc.unit),
                         cell(doc.accepts), cell(doc.default_value), cell(doc.help));
  }
  return out;
}

} // namespace acmesim
