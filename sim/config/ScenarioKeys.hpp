#pragma once
// The top level of a scenario file: its name and seed, and one key per section. The loader reads
// the sections (it orders them and checks across them); the echo of the resolved scenario and
// the key reference come from here, each section's from its own declarations.
#include "sim/config/Scenario.hpp"
#include "sim/keys/KeyTable.hpp"

#include <vector>

namespace acmesim {

const KeyTable<Scenario>& scenario_keys();

// The scenario as the run uses it, in the keys of a scenario file, every section with its
// defaults filled in: summary.json's "scenario" (which adds the file's name) and what
// `--set` and scenario files can say again.
Json resolved_scenario_json(const Scenario& scenario);

// Every key of a scenario file, in the order of the file's sections.
std::vector<KeyDoc> scenario_key_docs();

} // namespace acmesim
