#pragma once
// `workload: {synthetic: {preset: seren, days: 30, ...}}`: the generator calibrated to Acme's
// published distributions (docs/acme-generator.md); the per-type tables come from the preset,
// the other keys are the generator's knobs.
#include "models/workload/WorkloadSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `load_scale` (workload.load_scale) counts in the bound on the expected number of jobs.
AcmePresetSpec read_acme_preset(ConfigChecker& checker, const ConfigNode& node, double load_scale);
Json acme_preset_to_json(const AcmePresetSpec& spec);
std::vector<KeyDoc> acme_preset_key_docs(const std::string& path);

} // namespace acmesim
