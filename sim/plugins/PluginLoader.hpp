#pragma once
// Loading scheduler plugins (sim/policy_api/SchedulerPlugin.hpp): a shared library is opened once
// per process and kept open, its interface version checked before anything else is read from it.
#include "sim/policies/ExternalSchedulers.hpp"
#include "sim/policy_api/SchedulerPlugin.hpp"

#include <string>

namespace acmesim {

// The plugin in the shared library at `path` (as given: the scenario loader resolves it).
// PluginLoadError (ExternalSchedulers.hpp) when it cannot be used.
const SchedulerPlugin& load_scheduler_plugin(const std::string& path);

} // namespace acmesim
