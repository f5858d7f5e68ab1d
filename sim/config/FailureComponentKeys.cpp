#include "sim/config/FailureComponentKeys.hpp"

#include "sim/config/DistributionKeys.hpp"
#include "sim/keys/NamedKeys.hpp"

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
  if (!MapReader(checker, &node, key).ok()) // its keys are categories, checked below
    return false;
  std::vector<std::pair<FailureCategory, double>> categories;
  const auto read_weight = [&](FailureCategory category, const ConfigNode& value, const std::string& entry_key) {
    const auto weight = checker.number(value, entry_key, WEIGHT);
    if (weight)
      categories.emplace_back(category, *weight);
    return weight.has_value();
  };
  const bool ok =
      read_by_name<FailureCategory>(checker, node, key, {"failure category", "failure categories"}, read_weight);
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

} // namespace

ConfigKey<FailureSpec> components_key()
{
  const auto index = [](Component c) { return static_cast<std::size_t>(c); };
  return maps_by_name_key<Component>(
      "components", component_keys(),
      NamedMaps<FailureSpec, CF, Component>{
          [index](FailureSpec& spec, Component c) -> CF& { return spec.components[index(c)]; },
          [index](const FailureSpec& spec, Component c) -> const CF* { return &spec.components[index(c)]; }},
      {"component", "components"}, "", "per component: whether, how often and how it fails, and how it is repaired");
}

} // namespace acmesim
