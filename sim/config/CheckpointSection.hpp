#pragma once
// The `checkpoint:` section of a scenario (docs/checkpointing.md).
#include "models/checkpoint/CheckpointSpec.hpp"
#include "sim/config/CheckedReader.hpp"

namespace acmesim {

// Reads the section; every problem is reported through `checker`.
CheckpointSpec read_checkpoint(ConfigChecker& checker, const ConfigNode& node);

} // namespace acmesim
