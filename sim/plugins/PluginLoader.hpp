#pragma once
// Loading scheduler plugins (sim/scheduler/SchedulerPlugin.hpp): a shared library is opened once
// per process and kept open, its interface version checked before anything else is read from it.
#include "sim/scheduler/SchedulerPlugin.hpp"

#include <stdexcept>
#include <string>

namespace acmesim {

// A plugin that cannot be used: missing, not a shared library, without the entry points, or built
// against another interface version. The message says which, naming the file.
class PluginLoadError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The plugin in the shared library at `path` (as given: the scenario loader resolves it).
const SchedulerPlugin& load_scheduler_plugin(const std::string& path);

} // namespace acmesim
