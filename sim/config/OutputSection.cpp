#include "sim/config/OutputSection.hpp"

#include <string>
#include <vector>

namespace acmesim {

namespace {

// Wider bins than ~31.7 years are a unit error, as for every other time of a scenario.
constexpr double MAX_BIN_S = 1e9;

const std::vector<std::string> KEYS{"timeline", "utilisation_bin_s"};

} // namespace

OutputSpec read_output(ConfigChecker& checker, const ConfigNode& node)
{
  OutputSpec spec;
  MapReader m(checker, &node, "output", KEYS);
  if (!m.ok())
    return spec;
  // `true|false` only, as for checkpoint.enabled: YAML's other spellings (yes, on) are refused.
  std::string timeline;
  if (m.read_choice("timeline", timeline, {"true", "false"}))
    spec.timeline = timeline == "true";
  NumberRange bin = positive();
  bin.max = MAX_BIN_S;
  m.read("utilisation_bin_s", spec.utilisation_bin_s, bin);
  return spec;
}

} // namespace acmesim
