#pragma once
// The `evaluation:` section of a scenario (docs/evaluation.md).
#include "models/evaluation/EvalSpec.hpp"
#include "sim/config/DatasetCatalogueFile.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// What the section starts from: EvalSpec's defaults, enabled (writing the section asks for
// evaluation campaigns), with one campaign at time 0.
EvalSpec evaluation_defaults();

// Reads the section; `catalogue: path` resolves against the checker's directory, `catalogue:
// default` (or no key) takes the embedded configs/eval/datasets.yaml. Every problem goes through
// `checker`.
EvalSpec read_evaluation(ConfigChecker& checker, const ConfigNode& node);

template <> Json section_echo(const EvalSpec& spec);
template <> std::vector<KeyDoc> section_key_docs<EvalSpec>(const std::string& path);

} // namespace acmesim
