#include "sim/policies/PolicyCatalogue.hpp"

namespace acmesim {

const std::vector<PolicyInfo>& scheduler_catalogue()
{
  static const std::vector<PolicyInfo> catalogue{
      {"fifo", "strict submission order; the queue head blocks everyone behind it", {}},
      {"easy-backfill",
       "EASY backfilling: the queue head holds a reservation, later jobs start early only if they do not delay it",
       {{"runtime_estimate_factor",
         "runtime estimate = real duration x this factor (1 = perfect estimates; > 1 models user over-estimates)", 1.0,
         1.0, 1e6, false},
        {"backfill_depth", "queued jobs examined for backfilling per scheduling pass", 1000, 1, 1e9, true}}},
  };
  return catalogue;
}

const std::vector<PolicyInfo>& placement_catalogue()
{
  static const std::vector<PolicyInfo> catalogue{
      {"pack", "fewest leaf switches, then fewest nodes; best-fit node for jobs within one node", {}},
      {"spread", "spread whole-node jobs over as many leaf switches as possible; emptiest node for small jobs", {}},
      {"random", "uniformly random among nodes that fit (seeded stream placement.random)", {}},
  };
  return catalogue;
}

const PolicyInfo* find_policy(const std::vector<PolicyInfo>& catalogue, std::string_view name)
{
  for (const auto& p : catalogue)
    if (p.name == name)
      return &p;
  return nullptr;
}

std::string policy_names(const std::vector<PolicyInfo>& catalogue)
{
  std::string out;
  for (const auto& p : catalogue) {
    if (!out.empty())
      out += ", ";
    out += p.name;
  }
  return out;
}

} // namespace acmesim
