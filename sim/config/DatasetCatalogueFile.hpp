#pragma once
// Dataset catalogue files (configs/eval/datasets.yaml, or `evaluation.catalogue: <file>`): the
// datasets an evaluation campaign can run, with their phase times (docs/evaluation.md).
#include "models/evaluation/EvalSpec.hpp"
#include "sim/keys/KeyDoc.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// Parses a catalogue (YAML); problems are added to `diags` with the source's lines.
DatasetCatalogue parse_dataset_catalogue(std::string_view text, const std::string& source_name, DiagnosticList& diags);

// The keys of a catalogue file, for the key reference.
std::vector<KeyDoc> catalogue_key_docs();

} // namespace acmesim
