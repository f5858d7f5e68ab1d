#pragma once
// A scheduler compiled outside acmesim, against its installed headers, and loaded when a scenario
// names it: `scheduler: {plugin: path/to/libmysched.so, params: {...}}` (docs/writing-a-scheduler.md).
//
// A plugin is a shared library that defines, once, with ACMESIM_SCHEDULER_PLUGIN:
//
//   acmesim::SchedulerPlugin my_plugin()
//   {
//     return {{"sjf", "shortest job first", {{"depth", "jobs examined per pass", 100, 1, 1e6, true}}},
//             [](const acmesim::PolicyParams& params, const acmesim::Topology& topology,
//                std::unique_ptr<acmesim::PlacementPolicy> placement) {
//               return std::make_unique<MyScheduler>(topology, std::move(placement), params.integer("depth"));
//             }};
//   }
//   ACMESIM_SCHEDULER_PLUGIN(my_plugin)
//
// acmesim checks the interface version the plugin was compiled against before anything else, and
// refuses a plugin built against another. The plugin calls into the acmesim binary (the placement
// policies, QueueScheduler, ClusterState), which exports them: build it with the compiler and
// standard library acmesim was built with.
#include "sim/policy_api/PolicySpec.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

#include <functional>
#include <memory>

// The version of the interface a plugin is compiled against: changed whenever a change to these
// headers would break a plugin compiled before it.
#define ACMESIM_SCHEDULER_API_VERSION 3

namespace acmesim {

struct SchedulerPlugin {
  // Name, one-line help and typed parameters, declared as a built-in scheduler declares them:
  // validated in the scenario, echoed in summary.json, listed in errors.
  PolicyInfo info;
  std::function<std::unique_ptr<Scheduler>(const PolicyParams&, const Topology&, std::unique_ptr<PlacementPolicy>)>
      factory;
};

// The C entry points acmesim looks up in a plugin.
inline constexpr const char* SCHEDULER_API_VERSION_SYMBOL = "acmesim_scheduler_api_version";
inline constexpr const char* SCHEDULER_PLUGIN_SYMBOL = "acmesim_scheduler_plugin";

} // namespace acmesim

// Defines the entry points of a plugin from a function returning its acmesim::SchedulerPlugin.
#define ACMESIM_SCHEDULER_PLUGIN(make_plugin)                                                              \
  extern "C" __attribute__((visibility("default"))) int acmesim_scheduler_api_version()                    \
  {                                                                                                        \
    return ACMESIM_SCHEDULER_API_VERSION;                                                                  \
  }                                                                                                        \
  extern "C" __attribute__((visibility("default"))) const acmesim::SchedulerPlugin* acmesim_scheduler_plugin() \
  {                                                                                                        \
    static const acmesim::SchedulerPlugin plugin = make_plugin();                                          \
    return &plugin;                                                                                        \
  }
