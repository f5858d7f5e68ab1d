#pragma once
// The `cluster:` section of a scenario, its presets already expanded (ClusterResolver): one pod
// described by the cluster's own pod fields, or a list of pods; and the storage service.
#include "models/cluster/ClusterSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `cluster.processors` (ClusterSpec::processors), named once: the key reads it, the machine of an
// SWF header sets it, and the plots read it back from summary.json's echo.
inline constexpr const char* PROCESSORS = "processors"; // in `cluster:`
inline const std::string PROCESSORS_KEY = join_key("cluster", PROCESSORS);

// A pod's fields: keys of `cluster.pods.<i>`, and of `cluster` itself for a one-pod cluster.
const KeyTable<PodSpec>& pod_keys();

// `complete` is false if some preset could not be expanded: the pod fields it would have
// supplied are then not reported missing.
ClusterSpec read_cluster(ConfigChecker& checker, const ConfigNode& cluster, bool complete);

// The cluster as the run builds it (derived fabric and storage NIC values filled in).
template <> Json section_echo(const ClusterSpec& cluster);
template <> std::vector<KeyDoc> section_key_docs<ClusterSpec>(const std::string& path);

} // namespace acmesim
