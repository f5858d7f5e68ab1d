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
  m.read("timeline", spec.timeline);
  m.read("utilisation_bin_s", spec.utilisation_bin_s, positive_up_to(MAX_BIN_S));
  return spec;
}

} // namespace acmesim
