#include "sim/config/FailureSection.hpp"

#include "sim/config/FailureComponentKeys.hpp"
#include "sim/config/PhysicalRanges.hpp"
#include "sim/keys/NamedKeys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <unordered_set>

namespace acmesim {

namespace {

namespace fs = std::filesystem;
using F = FailureSpec;

// Upper bound that keeps a typo from producing absurd or overflowing numbers.
// A node's failure rate over the model's: 0 (it never fails) or a factor on it.
constexpr NumberRange NODE_RATE_MULTIPLIER{0, false, physical::RATE_MULTIPLIER.max, false, physical::RATE_MULTIPLIER.min};
// A week bounds any plausible detection delay.
constexpr double MAX_DETECTION_S = 7 * 24 * 3600;

// What `failures.model` names: a sourced model (FailurePreset), the one the cluster's hardware
// names (each pod's failure_model), or none (which still checks the other keys, so that
// `--set failures.model=none` switches a tuned model off without editing it).
const char* const HARDWARE_MODEL = "hardware";
const char* const NO_MODEL = "none";

std::vector<std::string> model_names()
{
  std::vector<std::string> names = enum_name_vector<FailurePreset>();
  names.push_back(HARDWARE_MODEL);
  names.push_back(NO_MODEL);
  return names;
}

// The two keys of which a section names exactly one: they decide what the others mean.
const char* const MODEL = "model";
const char* const RECORDED = "recorded";

// The model `failures.model` names: `ok` false after reporting a name that is none of them, and
// no preset for none.
struct NamedModel {
  bool ok = false;
  std::optional<FailurePreset> preset;
};

// The model every pod's hardware names; unset (after reporting) when pods of different hardware
// name different ones, as a run has one failure model.
std::optional<FailurePreset> hardware_model(MapReader& m, const ClusterSpec& cluster)
{
  const std::string named = cluster.pods.empty() ? PodSpec{}.failure_model : cluster.pods.front().failure_model;
  for (const auto& pod : cluster.pods)
    if (pod.failure_model != named) {
      m.checker().error(*m.get(MODEL), m.key_of(MODEL),
                        fmt::format("pods '{}' and '{}' name different failure models ({} and {}): name one",
                                    cluster.pods.front().name, pod.name, named, pod.failure_model));
      return std::nullopt;
    }
  return parse_enum<FailurePreset>(named);
}

NamedModel read_model(MapReader& m, const ClusterSpec& cluster)
{
  std::string name;
  if (!m.read(MODEL, name))
    return {};
  if (name == NO_MODEL)
    return {true, std::nullopt};
  if (name == HARDWARE_MODEL) {
    const auto preset = hardware_model(m, cluster);
    return {preset.has_value(), preset};
  }
  if (const auto preset = parse_enum<FailurePreset>(name))
    return {true, *preset};
  m.checker().error(*m.get(MODEL), m.key_of(MODEL),
                    fmt::format("unknown failure model; valid models: {}", fmt::join(model_names(), ", ")));
  return {};
}

// `node_rate_multipliers: {seren-n5: 20}`: node names, checked against the cluster later.
bool read_multipliers(ConfigChecker& checker, const ConfigNode& node, const std::string& key, F& spec)
{
  MapReader names(checker, &node, key);
  if (!names.ok())
    return false;
  spec.node_rate_multipliers.clear();
  bool ok = true;
  for (const auto& entry : node.entries) {
    const auto v = checker.number(entry.value, join_key(key, entry.key), NODE_RATE_MULTIPLIER);
    if (v)
      spec.node_rate_multipliers.emplace_back(entry.key, *v);
    ok = ok && v.has_value();
  }
  return ok;
}

Json multipliers_json(const F& spec)
{
  Json multipliers = Json::object();
  for (const auto& [node, multiplier] : spec.node_rate_multipliers)
    multipliers[node] = multiplier;
  return multipliers;
}

// The keys that tune the model: components, lemons, correlation.
const KeyTable<F>& model_keys()
{
  static const KeyTable<F> keys({
      components_key().default_is("each component's own, under it"),
      number_key("lemon_nodes", &F::lemon_nodes, integer_between(0, 100000), "nodes",
                 "nodes, chosen by the seed, that fail lemon_multiplier times as often"),
      number_key("lemon_multiplier", &F::lemon_multiplier, physical::RATE_MULTIPLIER, NO_UNIT,
                 "how many times as often a lemon node fails (node, gpu, nvlink and nic failures)"),
      ConfigKey<F>(other_doc("node_rate_multipliers", "map of numbers", "node names of the cluster",
                             "named nodes that fail this many times as often, as lemons do"),
                   node_reader<F>(read_multipliers), multipliers_json,
                   [](const std::string& path, const F&) {
                     KeyDoc doc = number_doc(join_key(path, "<node>"), NODE_RATE_MULTIPLIER, NO_UNIT,
                                             "the failure rate multiplier of the node");
                     doc.default_value = "1 when not listed";
                     return std::vector<KeyDoc>{doc};
                   }),
      number_key("neighbour_probability", &F::neighbour_probability, number_between(0, 1), NO_UNIT,
                 "the probability that a node-level failure also takes down the next node on its leaf switch"),
  });
  return keys;
}

// Detection delays apply to recorded failures too.
const KeyTable<F>& detection_keys()
{
  static const KeyTable<F> keys({
      numbers_by_name_key<FailureCategory>(
          "detection_s", &F::detection_s, NamedNumbers::Update, {"failure category", "failure categories"},
          {number_between(0, MAX_DETECTION_S), "s", "the detection delay of a failure category"},
          "seconds from a failure until it is noticed, by the category it is reported as")
          .default_is("each category's own, under it"),
  });
  return keys;
}

const KeyTable<F>& failure_keys()
{
  static const KeyTable<F> keys({
      {ConfigKey<F>(choice_doc(MODEL, model_names(),
                               "the sourced failure model the keys below tune: acme (Acme's A100 classes at Meta "
                               "RSC-1's node rate), rsc2 (the same at RSC-2's) or llama3 (Llama 3 405B's H100 run); "
                               "hardware: the one the cluster's pods name (failure_model); none: no failures"),
                    {}, {}) // read by read_failures, with `recorded`
           .default_is("set one of model and recorded"),
       ConfigKey<F>(other_doc(RECORDED, "path", "a readable file",
                              "a failure list (failures.csv of an earlier run) replayed instead of the model"),
                    {}, {})
           .default_is("set one of model and recorded")},
      detection_keys().keys(),
      model_keys().keys(),
  });
  return keys;
}

// The file's path resolved against the scenario's directory; reported unless it can be read.
void read_recorded(MapReader& m, F& spec)
{
  std::string written;
  if (!m.read(RECORDED, written))
    return;
  spec.recorded_path = m.checker().resolve(written);
  check_readable_file(m.checker(), *m.get(RECORDED), m.key_of(RECORDED), spec.recorded_path, "failure list");
}

// Exactly one of `model` and `recorded`; false after reporting otherwise.
bool one_source(ConfigChecker& checker, const MapReader& m)
{
  if (m.get(MODEL) && m.get(RECORDED))
    checker.error(m.node()->where, "failures", "",
                  "set exactly one of failures.model and failures.recorded, not both (a recorded list replaces "
                  "the model)");
  else if (!m.get(MODEL) && !m.get(RECORDED))
    checker.error(m.node()->where, "failures", "",
                  fmt::format("expected failures.model ({}) or failures.recorded (a failure list file)",
                              fmt::join(model_names(), " or ")));
  else
    return true;
  return false;
}

} // namespace

FailureSpec read_failures(ConfigChecker& checker, const ConfigNode& node, const ClusterSpec& cluster)
{
  MapReader m(checker, &node, "failures", failure_keys().names());
  if (!m.ok() || !one_source(checker, m))
    return F{};
  // Detection delays apply to recorded failures too, so both sources start from the defaults.
  F spec = acme_failure_defaults();
  bool none = false;
  if (m.get(RECORDED)) {
    spec.source = F::Source::Recorded;
    read_recorded(m, spec);
    for (const auto& name : model_keys().names())
      if (const ConfigNode* n = m.get(name))
        checker.error(*n, m.key_of(name), "applies only to failures.model (a recorded list replaces the model)");
  } else if (const NamedModel model = read_model(m, cluster); model.ok) {
    none = !model.preset;
    spec = failure_defaults(model.preset.value_or(FailurePreset::Acme));
    model_keys().read(m, spec);
  } else {
    return F{};
  }
  detection_keys().read(m, spec);
  return none ? F{} : spec;
}

void check_failures_against_topology(const FailureSpec& spec, const Topology& topology, const std::string& source,
                                     DiagnosticList& diags)
{
  if (spec.source != F::Source::Model)
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

template <> Json section_echo(const FailureSpec& spec)
{
  if (spec.source == F::Source::None)
    return Json{{MODEL, NO_MODEL}};
  if (spec.source == F::Source::Recorded) {
    // Detection delays apply to a recorded list too: the echo must carry them to reproduce the run.
    Json json{{RECORDED, fs::path(spec.recorded_path).filename().string()}};
    json.update(detection_keys().echo(spec));
    return json;
  }
  Json json{{MODEL, echo_value(spec.preset)}};
  json.update(model_keys().echo(spec));
  json.update(detection_keys().echo(spec));
  return json;
}

template <> std::vector<KeyDoc> section_key_docs<FailureSpec>(const std::string& path)
{
  return failure_keys().docs(path, acme_failure_defaults());
}

} // namespace acmesim
