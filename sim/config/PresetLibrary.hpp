#pragma once
// The embedded cluster presets (configs/clusters/*.yaml) one scenario load uses, each parsed
// once, with its positions ("preset kalos:12") kept for diagnostics.
#include "sim/keys/ConfigTree.hpp"

#include <map>
#include <optional>
#include <string>

namespace acmesim {

class PresetLibrary {
public:
  explicit PresetLibrary(DiagnosticList& diags) : diags_(diags) {}

  // nullptr if there is no such preset, or its text does not parse (then reported).
  const ConfigNode* find(const std::string& name);

private:
  DiagnosticList& diags_;
  std::map<std::string, std::optional<ConfigNode>> cache_;
};

} // namespace acmesim
