#include "sim/config/FailureSection.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <unordered_set>

namespace acmesim {

namespace {

namespace fs = std::filesystem;
using Dist = DurationDistribution;

constexpr double HOUR = 3600;
// Upper bounds that keep a typo from producing absurd or overflowing numbers.
constexpr double MAX_HOURS = 1e9;
constexpr double MAX_MULTIPLIER = 1e6;

const std::vector<std::string> MODEL_KEYS{"components", "lemon_nodes", "lemon_multiplier", "node_rate_multipliers",
                                          "neighbour_probability"};

NumberRange hours(bool strictly_positive)
{
  NumberRange r = strictly_positive ? positive() : at_least(0);
  r.max = MAX_HOURS;
  return r;
}

std::vector<std::string> dist_params(Dist::Kind kind)
{
  switch (kind) {
    case Dist::Kind::Exponential:
      return {"mean_h"};
    case Dist::Kind::Weibull:
      return {"shape", "scale_h"};
    case Dist::Kind::LogNormal:
      return {"median_h", "sigma"};
    case Dist::Kind::Fixed:
      break;
  }
  return {"value_h"};
}

// `{dist: ..., <parameters in hours>}`; every parameter of the chosen kind is required, since
// overriding half of a distribution of another kind has no meaning. `is_tbf`: a time between
// failures, which must not be zero (the instance would fail continuously).
std::optional<Dist> read_distribution(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                                      bool is_tbf)
{
  MapReader m(checker, &node, key); // valid keys depend on `dist`
  if (!m.ok())
    return std::nullopt;
  Dist d;
  if (!m.require("dist") || !m.read("dist", d.kind))
    return std::nullopt;
  const std::vector<std::string> params = dist_params(d.kind);
  std::vector<std::string> valid{"dist"};
  valid.insert(valid.end(), params.begin(), params.end());
  bool ok = true;
  for (const auto& entry : node.entries)
    if (std::find(valid.begin(), valid.end(), entry.key) == valid.end()) {
      checker.error(entry.key_where, m.key_of(entry.key), entry.key,
                    "unknown key for dist " + std::string(to_string(d.kind)) + "; valid keys: " + join_names(valid));
      ok = false;
    }
  for (const auto& p : params)
    ok = m.require(p) && ok;
  if (!ok)
    return std::nullopt;

  bool read = true;
  if (d.kind == Dist::Kind::Exponential) {
    read = m.read("mean_h", d.mean_s, hours(true));
    d.mean_s *= HOUR;
  } else if (d.kind == Dist::Kind::Weibull) {
    // Below 0.1 the mean (scale x Gamma(1 + 1/k)) exceeds 10^150 scales: not a failure process.
    read = m.read("shape", d.shape, number_between(0.1, 100));
    read = m.read("scale_h", d.scale_s, hours(true)) && read;
    d.scale_s *= HOUR;
  } else if (d.kind == Dist::Kind::LogNormal) {
    read = m.read("median_h", d.median_s, hours(true));
    // sigma 5 already puts the mean at 270,000 medians.
    read = m.read("sigma", d.sigma, number_between(0, 5)) && read;
    d.median_s *= HOUR;
  } else {
    read = m.read("value_h", d.value_s, hours(is_tbf));
    d.value_s *= HOUR;
  }
  return read ? std::optional<Dist>(d) : std::nullopt;
}

// A map keyed by failure category: `read(category, value, key)` for each entry, which returns
// whether the value was valid. Unknown categories are reported. True if every entry was good.
template <typename Read>
bool read_by_category(ConfigChecker& checker, const ConfigNode& node, const std::string& key, Read read)
{
  MapReader m(checker, &node, key); // keys are categories, checked here
  if (!m.ok())
    return false;
  bool ok = true;
  for (const auto& entry : node.entries) {
    const std::string entry_key = join_key(key, entry.key);
    const auto category = parse_enum<FailureCategory>(entry.key);
    if (!category) {
      checker.error(entry.key_where, entry_key, entry.key,
                    "unknown failure category; valid: " + enum_name_list<FailureCategory>());
      ok = false;
      continue;
    }
    ok = read(*category, entry.value, entry_key) && ok;
  }
  return ok;
}

// `{category: weight, ...}`, weights >= 0 summing to 1; replaces the whole list.
void read_categories(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                     std::vector<std::pair<FailureCategory, double>>& out)
{
  std::vector<std::pair<FailureCategory, double>> categories;
  const bool ok = read_by_category(checker, node, key, [&](FailureCategory category, const ConfigNode& value,
                                                           const std::string& entry_key) {
    const auto weight = checker.number(value, entry_key, number_between(0, 1));
    if (weight)
      categories.emplace_back(category, *weight);
    return weight.has_value();
  });
  if (!ok)
    return;
  double sum = 0;
  for (const auto& [category, weight] : categories)
    sum += weight;
  if (std::abs(sum - 1) > 1e-6) {
    checker.error(node, key, "category weights must sum to 1; they sum to " + format_number(sum));
    return;
  }
  out = std::move(categories);
}

void read_component(ConfigChecker& checker, const ConfigNode& node, const std::string& key, ComponentFailureSpec& c)
{
  MapReader m(checker, &node, key,
              {"enabled", "tbf", "categories", "reboot_share", "reboot", "replacement"});
  if (!m.ok())
    return;
  m.read("enabled", c.enabled);
  if (const ConfigNode* n = m.get("tbf"))
    if (const auto d = read_distribution(checker, *n, m.key_of("tbf"), true))
      c.time_between_failures = *d;
  if (const ConfigNode* n = m.get("categories"))
    read_categories(checker, *n, m.key_of("categories"), c.categories);
  m.read("reboot_share", c.reboot_share, number_between(0, 1));
  if (const ConfigNode* n = m.get("reboot"))
    if (const auto d = read_distribution(checker, *n, m.key_of("reboot"), false))
      c.reboot_time = *d;
  if (const ConfigNode* n = m.get("replacement"))
    if (const auto d = read_distribution(checker, *n, m.key_of("replacement"), false))
      c.replacement_time = *d;
}

// Keys that tune the model: components, lemons, correlation.
void read_model_keys(ConfigChecker& checker, MapReader& m, FailureSpec& spec)
{
  if (const ConfigNode* node = m.get("components")) {
    const std::string key = m.key_of("components");
    MapReader components(checker, node, key); // keys are component names, checked below
    if (components.ok())
      for (const auto& entry : node->entries) {
        const auto c = parse_enum<Component>(entry.key);
        if (!c)
          checker.error(entry.key_where, join_key(key, entry.key), entry.key,
                        "unknown component; valid: " + enum_name_list<Component>());
        else
          read_component(checker, entry.value, join_key(key, entry.key),
                         spec.components[static_cast<std::size_t>(*c)]);
      }
  }
  m.read("lemon_nodes", spec.lemon_nodes, integer_between(0, 100000));
  m.read("lemon_multiplier", spec.lemon_multiplier, positive_up_to(MAX_MULTIPLIER));
  if (const ConfigNode* node = m.get("node_rate_multipliers")) {
    const std::string key = m.key_of("node_rate_multipliers");
    MapReader names(checker, node, key); // keys are node names, checked against the cluster later
    if (names.ok()) {
      spec.node_rate_multipliers.clear();
      for (const auto& entry : node->entries)
        if (const auto v = checker.number(entry.value, join_key(key, entry.key), number_between(0, MAX_MULTIPLIER)))
          spec.node_rate_multipliers.emplace_back(entry.key, *v);
    }
  }
  m.read("neighbour_probability", spec.neighbour_probability, number_between(0, 1));
}

void read_detection(ConfigChecker& checker, const ConfigNode& node, const std::string& key, FailureSpec& spec)
{
  read_by_category(checker, node, key, [&](FailureCategory category, const ConfigNode& value,
                                           const std::string& entry_key) {
    // A week bounds any plausible detection delay.
    const auto v = checker.number(value, entry_key, number_between(0, 7 * 24 * HOUR));
    if (v)
      spec.detection_s[static_cast<std::size_t>(category)] = *v;
    return v.has_value();
  });
}

// The file's path resolved against the scenario's directory; reported unless it can be read.
void read_recorded(MapReader& m, const std::string& base_dir, FailureSpec& spec)
{
  std::string written;
  if (!m.read("recorded", written))
    return;
  const fs::path path(written);
  spec.recorded_path = (path.is_absolute() ? path : fs::path(base_dir) / path).lexically_normal().string();
  const ConfigNode& node = *m.get("recorded");
  std::error_code ec;
  if (!fs::exists(spec.recorded_path, ec))
    m.checker().error(node, m.key_of("recorded"),
                      "failure list not found: " + spec.recorded_path +
                          " (a relative path starts at the scenario's directory)");
  else if (fs::is_directory(spec.recorded_path, ec) || !std::ifstream(spec.recorded_path).good())
    m.checker().error(node, m.key_of("recorded"), "failure list cannot be read: " + spec.recorded_path);
}

} // namespace

FailureSpec read_failures(ConfigChecker& checker, const ConfigNode& node, const std::string& base_dir)
{
  FailureSpec spec;
  std::vector<std::string> keys{"model", "recorded", "detection_s"};
  keys.insert(keys.end(), MODEL_KEYS.begin(), MODEL_KEYS.end());
  MapReader m(checker, &node, "failures", keys);
  if (!m.ok())
    return spec;
  const ConfigNode* model = m.get("model");
  const ConfigNode* recorded = m.get("recorded");
  if (model && recorded) {
    checker.error(node.where, "failures", "",
                  "set exactly one of failures.model and failures.recorded, not both (a recorded list replaces "
                  "the model)");
    return spec;
  }
  if (!model && !recorded) {
    checker.error(node.where, "failures", "",
                  "expected failures.model (acme or none) or failures.recorded (a failure list file)");
    return spec;
  }

  // Detection delays apply to recorded failures too, so both sources start from the defaults.
  spec = acme_failure_defaults();
  std::string name;
  if (recorded) {
    spec.source = FailureSpec::Source::Recorded;
    read_recorded(m, base_dir, spec);
    for (const auto& k : MODEL_KEYS)
      if (const ConfigNode* n = m.get(k))
        checker.error(*n, m.key_of(k), "applies only to failures.model (a recorded list replaces the model)");
  } else if (m.read_choice("model", name, {"acme", "none"})) {
    read_model_keys(checker, m, spec);
  } else {
    return FailureSpec{};
  }
  if (const ConfigNode* n = m.get("detection_s"))
    read_detection(checker, *n, m.key_of("detection_s"), spec);
  // `model: none` still checks the other keys (so that `--set failures.model=none` switches a
  // tuned model off without editing it) but runs without failures.
  if (!recorded && name == "none")
    return FailureSpec{};
  return spec;
}

void check_failures_against_topology(const FailureSpec& spec, const Topology& topology, const std::string& source,
                                     DiagnosticList& diags)
{
  if (spec.source != FailureSpec::Source::Model)
    return;
  std::unordered_set<std::string> names;
  for (NodeId n = 0; n < topology.node_count(); ++n)
    names.insert(topology.node_name(n));
  const std::string example = topology.node_count() > 0 ? " (e.g. " + topology.node_name(0) + ")" : "";
  for (const auto& [name, multiplier] : spec.node_rate_multipliers)
    if (!names.count(name))
      diags.add(source, "failures.node_rate_multipliers." + name, name,
                "unknown node: expected a node name of the cluster" + example);
  if (static_cast<std::size_t>(std::max(spec.lemon_nodes, 0)) > topology.node_count())
    diags.add(source, "failures.lemon_nodes", std::to_string(spec.lemon_nodes),
              "exceeds the cluster's " + std::to_string(topology.node_count()) + " nodes");
}

} // namespace acmesim
