#include "sim/config/OutputSection.hpp"
#include "sim/config/PhysicalRanges.hpp"

namespace acmesim {

namespace {

// Wider bins than ~31.7 years are a unit error, as for every other time of a scenario.

} // namespace

const KeyTable<OutputSpec>& output_keys()
{
  static const KeyTable<OutputSpec> keys({
      value_key("timeline", &OutputSpec::timeline,
                "also write timeline.json: jobs on their GPUs, failures and outages, for Perfetto (--timeline)"),
      number_key("utilisation_bin_s", &OutputSpec::utilisation_bin_s, physical::BIN_S, "s",
                 "width of the time bins of utilisation.csv"),
  });
  return keys;
}

} // namespace acmesim
