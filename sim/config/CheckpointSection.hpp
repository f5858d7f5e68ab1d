#pragma once
// The `checkpoint:` section of a scenario (docs/checkpointing.md).
#include "models/checkpoint/CheckpointSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// What the section starts from: CheckpointSpec's defaults, enabled (writing the section asks
// for checkpoints unless it says otherwise).
CheckpointSpec checkpoint_defaults();

// Reads the section; every problem is reported through `checker`.
CheckpointSpec read_checkpoint(ConfigChecker& checker, const ConfigNode& node);

template <> Json section_echo(const CheckpointSpec& spec);
template <> std::vector<KeyDoc> section_key_docs<CheckpointSpec>(const std::string& path);

} // namespace acmesim
