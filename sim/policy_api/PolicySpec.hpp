#pragma once
// What a scenario says about a policy: its name and its parameters, and what a policy declares
// about itself: its help and the parameters it accepts. Policies register these where they are
// defined (PolicyRegistry.hpp); the scenario loader validates against them.
#include "models/common/EnumNames.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// One numeric parameter of a policy, set in the scenario next to the policy's name.
struct ParamSpec {
  std::string name;
  std::string help;
  double default_value = 0;
  double min_value = 0; // inclusive
  double max_value = 1e300;
  bool integer = false;
};

class PolicyParams;

struct PolicyInfo {
  std::string name;
  std::string help;
  std::vector<ParamSpec> params;
  // A rule between parameters that their ranges cannot say (may be empty): returns what is wrong
  // with the given values, naming the parameters, or "" when they are fine.
  std::function<std::string(const PolicyParams&)> check = {};
};

// What is wrong with how a policy declares its parameters, one line each, naming the parameter
// (empty when nothing is): a name empty or declared twice, a bound or default that is not a finite
// number (min may be -1e300 and max 1e300, as unbounded), min above max, a default outside
// [min, max], or a fractional default of an integer parameter. Plugins and Python policies are
// checked with it when loaded.
std::vector<std::string> declaration_problems(const PolicyInfo& info);

// A policy's parameters as its factory gets them: every declared parameter present (defaults
// filled in). Asking for one the policy did not declare is a programming error.
class PolicyParams {
public:
  explicit PolicyParams(const std::map<std::string, double>& values) : values_(values.begin(), values.end()) {}
  double number(std::string_view name) const;
  int integer(std::string_view name) const;
  bool flag(std::string_view name) const { return number(name) != 0; }

private:
  std::map<std::string, double, std::less<>> values_;
};

// How the pods of a cluster are scheduled: as one pool (a job may run on any pod), or each by
// its own instance of the scheduler, as separate clusters (a job runs on the pod of its home).
enum class PodScheduling : std::uint8_t { Shared, Separate };
constexpr auto enum_names(PodScheduling) { return names_in_order<PodScheduling>("shared", "separate"); }

// scheduler: {name, placement, pods, <parameters of the named scheduler>}, or a plugin's:
// {plugin: libx.so, placement, pods, params: {...}} (docs/writing-a-scheduler.md).
struct SchedulerSpec {
  std::string name = "fifo"; // a built-in's, or the name the plugin declares
  std::string placement = "pack";
  PodScheduling pods = PodScheduling::Shared;
  std::string plugin;            // a C++ plugin's path as resolved; empty: a built-in scheduler
  std::string plugin_as_written; // as the scenario wrote it (echoed, so results do not depend on the cwd)
  std::string python;            // a Python policy's file as resolved (docs/writing-a-scheduler.md)
  std::string python_as_written;
  std::string python_class;      // the class in it
  double decision_limit_s = 0;   // wall seconds one call may take before the run is stopped; 0: no limit
  std::map<std::string, double> params; // validated; the loader fills in every default
};
// The scenario key of SchedulerSpec::decision_limit_s, declared here for the messages of the run
// that enforces it (sim/run/DecisionWatch) as well as for the reader.
constexpr const char* DECISION_LIMIT_KEY = "decision_limit_s";

// recovery: {name, <parameters of the named policy>} (docs/failures.md)
struct RecoverySpec {
  std::string name = "manual";
  std::map<std::string, double> params; // validated; the loader fills in every default
};

} // namespace acmesim
