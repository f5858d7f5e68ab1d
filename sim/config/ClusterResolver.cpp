#include "sim/config/ClusterResolver.hpp"

#include "sim/config/ClusterSection.hpp"
#include "sim/config/EmbeddedConfigs.hpp"

namespace acmesim {

namespace {

// A preset file may name a preset itself; this bounds such chains (and cycles).
constexpr int MAX_DEPTH = 8;

// `name: <preset>`, written where the `preset:` entry is.
ConfigNode name_of_preset(const ConfigEntry& entry)
{
  return ConfigNode::make_scalar(entry.value.scalar, entry.value.where);
}

} // namespace

ConfigNode ClusterResolver::resolve(const ConfigNode& cluster)
{
  ConfigNode merged = merge_preset(cluster, "cluster", 0);
  if (ConfigNode* pods = merged.find("pods"); pods && pods->is_list())
    for (std::size_t i = 0; i < pods->items.size(); ++i)
      pods->items[i] = resolve_pod(pods->items[i], "cluster.pods." + std::to_string(i));
  return merged;
}

ClusterResolver::PresetUse ClusterResolver::use_preset(const ConfigNode& node, const std::string& key)
{
  PresetUse use{node, node.find_entry("preset"), nullptr};
  if (use.entry) {
    use.overlay.erase("preset");
    use.preset = preset_of(*use.entry, key + ".preset");
  }
  return use;
}

const ConfigNode* ClusterResolver::preset_of(const ConfigEntry& entry, const std::string& key)
{
  const std::string valid = "valid presets: " + join_names(cluster_preset_names());
  const ConfigNode* preset = nullptr;
  if (!entry.value.is_scalar())
    checker_.error(entry.value, key, "expected a preset name; " + valid);
  else if (!embedded_cluster_preset(entry.value.scalar))
    checker_.error(entry.value, key, "unknown cluster preset; " + valid);
  else
    preset = presets_.find(entry.value.scalar);
  failed_ = failed_ || !preset;
  return preset;
}

ConfigNode ClusterResolver::merge_preset(const ConfigNode& cluster, const std::string& key, int depth)
{
  PresetUse use = use_preset(cluster, key);
  if (!use.preset)
    return use.overlay;
  if (depth >= MAX_DEPTH) {
    checker_.error(use.entry->value, key + ".preset", "presets name each other in a cycle");
    failed_ = true;
    return use.overlay;
  }
  ConfigNode base = merge_preset(*use.preset, key, depth + 1);
  if (!base.is_map())
    base = ConfigNode::make_map(use.preset->where);
  if (!base.find("name"))
    base.set("name", use.entry->key_where, name_of_preset(*use.entry));
  // A pod list of the user's own describes every pod: the preset's single-pod fields must not
  // leak next to it (where they would trip the multi-pod check on lines the user never wrote).
  if (use.overlay.find("pods"))
    for (const auto& field : pod_keys().names())
      base.erase(field);
  deep_merge(base, use.overlay);
  return base;
}

ConfigNode ClusterResolver::resolve_pod(const ConfigNode& pod, const std::string& key)
{
  PresetUse use = use_preset(pod, key);
  if (!use.preset)
    return use.overlay;
  const ConfigNode full = merge_preset(*use.preset, key, 1);
  if (full.find("pods")) {
    checker_.error(use.entry->value, key + ".preset",
                   "preset '" + use.entry->value.scalar + "' has several pods; a pod can only use a single-pod preset");
    failed_ = true;
    return use.overlay;
  }
  ConfigNode base = ConfigNode::make_map(pod.where);
  base.set("name", use.entry->key_where, name_of_preset(*use.entry));
  for (const auto& entry : full.entries)
    if (pod_keys().has(entry.key))
      base.set(entry.key, entry.key_where, entry.value);
  deep_merge(base, use.overlay);
  return base;
}

ClusterSpec read_cluster_section(ConfigChecker& checker, const ConfigNode& cluster)
{
  PresetLibrary presets(checker.diagnostics());
  ClusterResolver resolver(presets, checker);
  const ConfigNode resolved = resolver.resolve(cluster);
  return read_cluster(checker, resolved, !resolver.failed());
}

} // namespace acmesim
