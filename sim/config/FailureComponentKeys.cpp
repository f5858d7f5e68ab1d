#include "sim/config/FailureComponentKeys.hpp"

#include "sim/config/DistributionKeys.hpp"

#include <cmath>
#include <utility>

namespace acmesim {

namespace {

using CF = ComponentFailureSpec;

// The weight of one category among a component's failures.
const NumberRange WEIGHT = number_between(0, 1);

// `{category: weight, ...}`, weights summing to 1; replaces the whole list.
bool read_categories(ConfigChecker& checker, const ConfigNode& node, const std::string& key, CF& spec)
{
  std::vector<std::pair<FailureCategory, double>> categories;
  const bool ok = read_by_category(checker, node, key, [&](FailureCategory category, const ConfigNode& value,
                                                           const std::string& entry_key) {
    const auto weight = checker.number(value, entry_key, WEIGHT);
    if (weight)
      categories.emplace_back(category, *weight);
    return weight.has_value();
  });
  if (!ok)
    return false;
  double sum = 0;
  for (const auto& [category, weight] : categories)
    sum += weight;
  if (std::abs(sum - 1) > 1e-6) {
    checker.error(node, key, "category weights must sum to 1; they sum to " + format_number(sum));
    return false;
  }
  spec.categories = std::move(categories);
  return true;
}

Json categories_json(const CF& spec)
{
  Json categories = Json::object();
  for (const auto& [category, weight] : spec.categories)
    categories[std::string(to_string(category))] = weight;
  return categories;
}

std::vector<KeyDoc> category_docs(const std::string& path, const CF&)
{
  KeyDoc doc = number_doc(join_key(path, "<category>"), WEIGHT, NO_UNIT,
                          "the weight of a category (" + enum_name_list<FailureCategory>() + ")");
  doc.default_value = "0 when not listed";
  return {doc};
}

const KeyTable<CF>& component_keys()
{
  static const KeyTable<CF> keys({
      value_key("enabled", &CF::enabled, "whether the component fails at all"),
      distribution_key("tbf", &CF::time_between_failures, true,
                       "the time between failures of one instance (one node, one GPU, one leaf switch)"),
      ConfigKey<CF>(other_doc("categories", "map of numbers", "failure categories, weights summing to 1",
                              "what a failure is reported as; given, it replaces the whole list"),
                    node_reader<CF>(read_categories), categories_json, category_docs),
      number_key("reboot_share", &CF::reboot_share, number_between(0, 1), NO_UNIT,
                 "the share of repairs that are a reboot; the others replace a part (which also cures a lemon "
                 "node)"),
      distribution_key("reboot", &CF::reboot_time, false, "the time a reboot takes"),
      distribution_key("replacement", &CF::replacement_time, false, "the time a part replacement takes"),
  });
  return keys;
}

CF& component_of(FailureSpec& spec, Component component)
{
  return spec.components[static_cast<std::size_t>(component)];
}

const CF& component_of(const FailureSpec& spec, Component component)
{
  return spec.components[static_cast<std::size_t>(component)];
}

} // namespace

bool read_components(ConfigChecker& checker, const ConfigNode& node, const std::string& key, FailureSpec& spec)
{
  MapReader components(checker, &node, key); // keys are component names, checked below
  if (!components.ok())
    return false;
  bool ok = true;
  for (const auto& entry : node.entries) {
    const auto c = parse_enum<Component>(entry.key);
    if (!c)
      checker.error(entry.key_where, join_key(key, entry.key), entry.key,
                    "unknown component; valid: " + enum_name_list<Component>());
    else
      ok = component_keys().read_map(checker, &entry.value, join_key(key, entry.key), component_of(spec, *c)) && ok;
    ok = ok && c.has_value();
  }
  return ok;
}

Json components_to_json(const FailureSpec& spec)
{
  Json components = Json::object();
  for (Component c : enum_values<Component>())
    components[std::string(to_string(c))] = component_keys().echo(component_of(spec, c));
  return components;
}

std::vector<KeyDoc> component_key_docs(const std::string& path, const FailureSpec& defaults)
{
  std::vector<std::pair<std::string, std::vector<KeyDoc>>> per_component;
  for (Component c : enum_values<Component>())
    per_component.emplace_back(std::string(to_string(c)),
                               component_keys().docs(join_key(path, "<component>"), component_of(defaults, c)));
  return merge_docs_by_name(per_component);
}

} // namespace acmesim
