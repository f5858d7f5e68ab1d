#include "sim/config/PolicySection.hpp"

#include "sim/config/WorkloadSection.hpp"

#include "sim/policies/ExternalSchedulers.hpp"
#include "sim/policies/Registries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace acmesim {

namespace {

// Where a scheduler written outside acmesim takes its parameters: read once the scheduler has said
// which it declares. A built-in policy takes its own in its section itself.
constexpr const char* PARAMS_KEY = "params";

const std::vector<ConfigEntry> NO_ENTRIES;

NumberRange range_of(const ParamSpec& param)
{
  return {param.min_value, false, param.max_value, param.integer};
}

// Policy parameters declare no unit; their names carry it, by the scenario files' convention
// (design principle 7): `_s` seconds, `_h` hours, `_hour` an hour of the day.
std::string unit_of(const std::string& name)
{
  static const std::array<std::pair<std::string, std::string>, 3> suffixes{
      {{"_s", "s"}, {"_h", "h"}, {"_hour", "hour of day"}}};
  for (const auto& [suffix, unit] : suffixes)
    if (name.size() > suffix.size() && name.ends_with(suffix))
      return unit;
  return NO_UNIT;
}

// A policy's name, checked against its registry ("unknown scheduler; valid schedulers: ...").
template <typename Spec, typename Registry>
ConfigKey<Spec> policy_key(std::string name, std::string Spec::*member, Registry& registry, std::string unknown,
                           std::string help)
{
  return {choice_doc(std::move(name), registry.names(), std::move(help)),
          [member, &registry, unknown](MapReader& m, const std::string& key, Spec& spec) {
            if (!m.read(key, spec.*member))
              return false;
            if (registry.find(spec.*member))
              return true;
            m.checker().error(*m.get(key), m.key_of(key), unknown + ": " + join_names(registry.names()));
            return false;
          },
          [member](const Spec& spec) { return Json(spec.*member); }};
}

const KeyTable<SchedulerSpec>& scheduler_keys()
{
  static const KeyTable<SchedulerSpec> keys({
      policy_key("name", &SchedulerSpec::name, scheduler_registry(), "unknown scheduler; valid schedulers",
                 "the scheduler (`acmesim list`)"),
      policy_key("placement", &SchedulerSpec::placement, placement_registry(),
                 "unknown placement policy; valid policies", "where a job's GPUs are taken from"),
      value_key("pods", &SchedulerSpec::pods,
                "shared: one scheduler for all pods, a job runs on any; separate: each pod has its own "
                "instance of the scheduler, as separate clusters, and a job runs on the pod named after its "
                "home cluster (the acme generator's jobs have one)"),
      number_key(DECISION_LIMIT_KEY, &SchedulerSpec::decision_limit_s, number_between(0, 86400), "s",
                 "wall time one scheduler call may take; past it the run stops (exit 1) naming the policy and "
                 "the simulated time: for a policy that may loop forever. 0: no limit"),
  });
  return keys;
}

const KeyTable<RecoverySpec>& recovery_keys()
{
  static const KeyTable<RecoverySpec> keys({
      policy_key("name", &RecoverySpec::name, recovery_registry(), "unknown recovery policy; valid policies",
                 "what happens to a job a failure interrupts (`acmesim list`)"),
  });
  return keys;
}

// Reads the parameters of `policy` from map `m` (every key but the section's declared ones),
// range-checked against its registration, with defaults filled in for those not given.
std::map<std::string, double> read_policy_params(MapReader& m, const PolicyInfo& policy, const std::string& kind,
                                                 const std::vector<std::string>& section_keys)
{
  std::map<std::string, double> params;
  std::vector<std::string> param_names;
  for (const auto& p : policy.params)
    param_names.push_back(p.name);
  for (const auto& entry : m.node() ? m.node()->entries : NO_ENTRIES) {
    if (std::find(section_keys.begin(), section_keys.end(), entry.key) != section_keys.end())
      continue;
    const std::string key = m.key_of(entry.key);
    const auto param = std::find_if(policy.params.begin(), policy.params.end(),
                                    [&](const ParamSpec& p) { return p.name == entry.key; });
    if (param == policy.params.end()) {
      const std::string accepted = param_names.empty()
                                       ? kind + " '" + policy.name + "' takes no parameters"
                                       : "not a parameter of " + kind + " '" + policy.name +
                                             "'; it accepts: " + join_names(param_names);
      // Backfilling's runtime_estimate_factor became the run's estimate model, which every policy sees.
      std::string moved = entry.key == "runtime_estimate_factor"
                              ? "; runtime estimates are the run's: " + ESTIMATES_KEY + ": factor with " +
                                    ESTIMATE_FACTOR_KEY
                              : "";
      // `params:` holds a plugin's parameters; a built-in policy's sit in the section itself.
      if (entry.key == PARAMS_KEY && !param_names.empty())
        moved = "; a built-in " + kind + "'s parameters are keys of the section itself, as " +
                m.key_of(param_names.front());
      m.checker().error(entry.key_where, key, "",
                        accepted + " (other valid keys: " + join_names(section_keys) + ")" + moved);
      continue;
    }
    if (const auto v = m.checker().number(entry.value, key, range_of(*param)))
      params[param->name] = *v;
  }
  for (const auto& p : policy.params)
    params.try_emplace(p.name, p.default_value);
  return params;
}

// The rule a policy declares between its parameters, if it has one.
void check_param_rule(ConfigChecker& checker, const ConfigNode* node, const std::string& section,
                      const std::string& kind, const PolicyInfo& policy, const std::map<std::string, double>& params)
{
  const std::string wrong = policy.check ? policy.check(PolicyParams(params)) : "";
  if (!wrong.empty())
    checker.error(node ? node->where : section, section, "", kind + " '" + policy.name + "': " + wrong);
}

// The keys of a scheduler written outside acmesim (docs/writing-a-scheduler.md): a plugin's file or
// a Python file with its class, read, echoed and documented from these declarations (PARAMS_KEY,
// above).

Json with_params(Json json, const std::map<std::string, double>& params)
{
  for (const auto& [key, value] : params)
    json[key] = value;
  return json;
}

const KeyTable<SchedulerSpec>& external_scheduler_keys()
{
  using S = SchedulerSpec;
  static const KeyTable<S> keys({
      path_key(std::string(to_string(ExternalKind::Plugin)), &S::plugin_as_written, &S::plugin, "",
               "a scheduler plugin (shared library, docs/writing-a-scheduler.md) instead of a built-in name")
          .default_is("none"),
      path_key(std::string(to_string(ExternalKind::Python)), &S::python_as_written, &S::python, "",
               "a scheduler written in Python (a file, with class) instead of a built-in name")
          .default_is("none"),
      text_key("class", &S::python_class, "a class the python file defines", "with python: the policy's class")
          .default_is("none"),
      ConfigKey<S>(other_doc(PARAMS_KEY, "map", "the plugin's declared parameters",
                             "with plugin or python: its parameters, checked against what it declares"),
                   {}, // read once the plugin is loaded (read_plugin_scheduler)
                   [](const S& spec) { return with_params(Json::object(), spec.params); })
          .default_is("the plugin's defaults"),
  });
  return keys;
}

// The keys of the scheduler section that names an external scheduler of `kind`.
std::vector<std::string> external_section_keys(ExternalKind kind)
{
  std::vector<std::string> keys = scheduler_keys().names();
  for (const auto& name : external_scheduler_keys().names())
    if (name == PARAMS_KEY || name == to_string(kind) || (kind == ExternalKind::Python && name == "class"))
      keys.push_back(name);
  return keys;
}

// `scheduler: {plugin: libx.so, params: {...}}` or `{python: x.py, class: X, params: {...}}`: the
// plugin is loaded now, so that a plugin that cannot be used and parameters it does not declare
// are input errors found before any run.
SchedulerSpec read_plugin_scheduler(ConfigChecker& checker, const ConfigNode& node, ExternalKind kind)
{
  SchedulerSpec spec;
  MapReader m(checker, &node, "scheduler", external_section_keys(kind));
  if (!m.ok())
    return spec;
  for (const auto& key : scheduler_keys().keys())
    if (key.name() != "name")
      key.read(m, spec);
  const std::string file_key(to_string(kind));
  const bool have_file = external_scheduler_keys().at(file_key).read(m, spec);
  const bool have_class = kind != ExternalKind::Python ||
                          (m.require("class") && external_scheduler_keys().at("class").read(m, spec));
  if (!have_file || !have_class)
    return spec;
  const PolicyInfo* info = nullptr;
  try {
    info = &external_scheduler(kind).declared(spec);
  } catch (const PluginLoadError& e) {
    checker.error(*m.get(file_key), m.key_of(file_key), e.what());
    return spec;
  }
  // Its own declarations, checked before any value of the scenario is read against them.
  if (const auto problems = declaration_problems(*info); !problems.empty()) {
    checker.error(*m.get(file_key), m.key_of(file_key),
                  fmt::format("the {} declares its parameters wrongly: {}",
                              kind == ExternalKind::Python ? "Python policy" : "scheduler plugin",
                              fmt::join(problems, "; ")));
    return spec;
  }
  std::string name = info->name;
  if (m.read("name", name) && name != info->name)
    checker.error(*m.get("name"), "scheduler.name", "the plugin names itself '" + info->name + "'; leave name out or give that");
  spec.name = info->name;
  MapReader params(checker, m.get(PARAMS_KEY), m.key_of(PARAMS_KEY));
  spec.params = read_policy_params(params, *info, "scheduler plugin", {});
  check_param_rule(checker, &node, "scheduler", "scheduler plugin", *info, spec.params);
  return spec;
}

// A policy section: its declared keys (the policy's name first), then the named policy's
// parameters. `kind` names the policy in messages.
template <typename Spec, typename Registry>
Spec read_policy_section(ConfigChecker& checker, const ConfigNode* node, const std::string& section,
                         const KeyTable<Spec>& keys, const Registry& registry, const std::string& kind)
{
  Spec spec;
  MapReader m(checker, node, section); // the accepted keys depend on the chosen policy
  const auto& declared = keys.keys();
  // A name that is not a string, or names no policy, leaves the parameters unjudged.
  const bool name_ok = declared.front().read(m, spec);
  std::for_each(std::next(declared.begin()), declared.end(), [&](const auto& key) { key.read(m, spec); });
  if (const PolicyInfo* policy = name_ok ? registry.find(spec.name) : nullptr) {
    spec.params = read_policy_params(m, *policy, kind, keys.names());
    check_param_rule(checker, node, section, kind, *policy, spec.params);
  }
  return spec;
}

// Every parameter of every policy in `policies`, under `path`.
std::vector<KeyDoc> param_docs(const std::string& path, const std::vector<const PolicyInfo*>& policies)
{
  std::vector<KeyDoc> docs;
  for (const PolicyInfo* policy : policies)
    for (const auto& param : policy->params) {
      KeyDoc doc = number_doc(join_key(path, param.name), range_of(param), unit_of(param.name),
                              "with name " + policy->name + ": " + param.help);
      describe_default(doc, Json(param.default_value));
      docs.push_back(std::move(doc));
    }
  return docs;
}

// The declared keys of a policy section, then every parameter of every policy it may name.
template <typename Spec>
std::vector<KeyDoc> section_docs(const std::string& path, const KeyTable<Spec>& keys,
                                 const std::vector<const PolicyInfo*>& policies)
{
  std::vector<KeyDoc> docs = keys.docs(path, Spec{});
  for (auto& doc : param_docs(path, policies))
    docs.push_back(std::move(doc));
  return docs;
}

} // namespace

SchedulerSpec read_scheduler(ConfigChecker& checker, const ConfigNode* node)
{
  // A Python file first: a section naming both is refused as a Python policy's (plugin unknown).
  for (const ExternalKind kind : {ExternalKind::Python, ExternalKind::Plugin})
    if (node && node->is_map() && node->find(to_string(kind)))
      return read_plugin_scheduler(checker, *node, kind);
  return read_policy_section(checker, node, "scheduler", scheduler_keys(), scheduler_registry(), "scheduler");
}

RecoverySpec read_recovery(ConfigChecker& checker, const ConfigNode* node)
{
  return read_policy_section(checker, node, "recovery", recovery_keys(), recovery_registry(), "recovery policy");
}

template <> Json section_echo(const SchedulerSpec& spec)
{
  if (!external_kind(spec))
    return with_params(scheduler_keys().echo(spec), spec.params);
  Json json = scheduler_keys().echo(spec);
  json.update(external_scheduler_keys().echo(spec));
  return json;
}

template <> Json section_echo(const RecoverySpec& spec)
{
  return with_params(recovery_keys().echo(spec), spec.params);
}

template <> std::vector<KeyDoc> section_key_docs<SchedulerSpec>(const std::string& path)
{
  std::vector<KeyDoc> docs = section_docs(path, scheduler_keys(), scheduler_registry().policies());
  for (auto& doc : external_scheduler_keys().docs(path, SchedulerSpec{}))
    docs.push_back(std::move(doc));
  return docs;
}

template <> std::vector<KeyDoc> section_key_docs<RecoverySpec>(const std::string& path)
{
  return section_docs(path, recovery_keys(), recovery_registry().policies());
}

} // namespace acmesim
