#pragma once
// The one list of policy names: schedulers and placement policies, each with a one-line
// help text and the parameters it accepts. The scenario loader validates names and
// parameters against it, `acmesim list` prints it, and PolicyFactory builds from it.
// Adding a policy means adding one entry here and one case in PolicyFactory.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct ParamSpec {
  std::string name;
  std::string help;
  double default_value = 0;
  double min_value = 0;   // inclusive
  double max_value = 1e300;
  bool integer = false;
};

struct PolicyInfo {
  std::string name;
  std::string help;
  std::vector<ParamSpec> params;
};

const std::vector<PolicyInfo>& scheduler_catalogue();
const std::vector<PolicyInfo>& placement_catalogue();
// What happens after a failure interrupts a job (docs/failures.md).
const std::vector<PolicyInfo>& recovery_catalogue();

// nullptr if unknown.
const PolicyInfo* find_policy(const std::vector<PolicyInfo>& catalogue, std::string_view name);
// "fifo, easy-backfill" for error messages.
std::string policy_names(const std::vector<PolicyInfo>& catalogue);

} // namespace acmesim
