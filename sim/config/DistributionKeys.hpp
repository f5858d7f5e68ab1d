#pragma once
// Duration distributions in a scenario, `{dist: weibull, shape: 0.7, scale_h: 50000}`: the
// parameters of each kind, in hours, declared once for reading, the echo and the reference.
// Every parameter of the chosen kind is required, since overriding half of a distribution of
// another kind has no meaning.
#include "models/failure/FailureSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <optional>
#include <string>
#include <vector>

namespace acmesim {

// `time_between_failures`: a time between failures, which must not be zero (the instance would
// fail continuously); a repair time may be.
std::optional<DurationDistribution> read_distribution(ConfigChecker& checker, const ConfigNode& node,
                                                      const std::string& key, bool time_between_failures);
Json distribution_to_json(const DurationDistribution& distribution);
std::vector<KeyDoc> distribution_key_docs(const std::string& path, bool time_between_failures);

// A key holding a distribution, the member `member` of Spec.
template <typename Spec>
ConfigKey<Spec> distribution_key(std::string name, DurationDistribution Spec::*member, bool time_between_failures,
                                 std::string help)
{
  return ConfigKey<Spec>(
      other_doc(std::move(name), "map", "dist and its parameters", std::move(help)),
      node_reader<Spec>([member, time_between_failures](ConfigChecker& checker, const ConfigNode& node,
                                                         const std::string& key, Spec& spec) {
        const auto distribution = read_distribution(checker, node, key, time_between_failures);
        if (distribution)
          spec.*member = *distribution;
        return distribution.has_value();
      }),
      [member](const Spec& spec) { return distribution_to_json(spec.*member); },
      [time_between_failures](const std::string& path, const Spec&) {
        return distribution_key_docs(path, time_between_failures);
      });
}

} // namespace acmesim
