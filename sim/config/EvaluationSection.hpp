#pragma once
// The `evaluation:` section of a scenario (docs/evaluation.md) and dataset catalogues.
#include "models/evaluation/EvalSpec.hpp"
#include "sim/config/CheckedReader.hpp"

#include <string>
#include <string_view>

namespace acmesim {

// Reads the section; `catalogue: path` resolves against base_dir, `catalogue: default` (or no
// key) takes the embedded configs/eval/datasets.yaml. Every problem goes through `checker`.
EvalSpec read_evaluation(ConfigChecker& checker, const ConfigNode& node, const std::string& base_dir);

// Parses a dataset catalogue (YAML); problems are added to `diags` with the source's lines.
DatasetCatalogue parse_dataset_catalogue(std::string_view text, const std::string& source_name, DiagnosticList& diags);

} // namespace acmesim
