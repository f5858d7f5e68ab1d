#pragma once
// The `network:` section of a scenario (docs/network.md): the model (flows, the default, or off),
// the communication profile of training steps, per-job-type profiles and the reference fabric of
// each pod. With the model off the section is not echoed, so that the outputs are those of a run
// without a network model, byte for byte.
#include "models/network/NetworkSpec.hpp"
#include "sim/keys/KeyTable.hpp"

namespace acmesim {

// `network.model`, named once: the key reads and echoes it, and the loader refuses it on a CPU
// machine.
inline constexpr const char* NETWORK_MODEL = "model"; // in `network:`
inline const std::string NETWORK_MODEL_KEY = join_key("network", NETWORK_MODEL);

NetworkSpec read_network(ConfigChecker& checker, const ConfigNode& node);

template <> Json section_echo(const NetworkSpec& spec);
template <> std::vector<KeyDoc> section_key_docs<NetworkSpec>(const std::string& path);

} // namespace acmesim
