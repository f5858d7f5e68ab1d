#pragma once
// Expands `cluster.preset` and `cluster.pods.<i>.preset`, so that the checks that follow see one
// plain cluster map in which every value still points at the line it came from.
#include "models/cluster/ClusterSpec.hpp"
#include "sim/config/PresetLibrary.hpp"
#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/ConfigTree.hpp"

#include <string>

namespace acmesim {

class ClusterResolver {
public:
  ClusterResolver(PresetLibrary& presets, ConfigChecker& checker) : presets_(presets), checker_(checker) {}

  // Whether a preset could not be used: the pod fields it should have supplied are then missing,
  // and saying so would only repeat the error about the preset.
  bool failed() const { return failed_; }

  ConfigNode resolve(const ConfigNode& cluster);

private:
  // A map that may name a preset: the map without its `preset:` entry, the entry, and the preset
  // it names (nullptr without an entry, or after reporting a preset that cannot be used).
  struct PresetUse {
    ConfigNode overlay;
    const ConfigEntry* entry = nullptr;
    const ConfigNode* preset = nullptr;
  };

  PresetUse use_preset(const ConfigNode& node, const std::string& key);
  // The preset a `preset:` entry names; nullptr after reporting an unknown one.
  const ConfigNode* preset_of(const ConfigEntry& entry, const std::string& key);
  // `cluster` laid over the preset it names (deep merge: maps merge, scalars and lists replace).
  ConfigNode merge_preset(const ConfigNode& cluster, const std::string& key, int depth);
  // A pod with `preset: X` takes X's pod fields (not its storage), named X unless it says otherwise.
  ConfigNode resolve_pod(const ConfigNode& pod, const std::string& key);

  PresetLibrary& presets_;
  ConfigChecker& checker_;
  bool failed_ = false;
};

// The `cluster:` section as a scenario writes it: its presets expanded, then read (ClusterSection).
ClusterSpec read_cluster_section(ConfigChecker& checker, const ConfigNode& cluster);

} // namespace acmesim
