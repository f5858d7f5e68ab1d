#include "sim/plugins/PluginLoader.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>

namespace acmesim {

namespace {

std::string dl_error()
{
  const char* e = dlerror();
  return e ? e : "unknown error";
}

} // namespace

const SchedulerPlugin& load_scheduler_plugin(const std::string& path)
{
  // Loaded plugins stay loaded: the schedulers they made may outlive any one scenario.
  static std::mutex mutex;
  static std::map<std::string, const SchedulerPlugin*> loaded;
  const std::lock_guard lock(mutex);
  if (const auto it = loaded.find(path); it != loaded.end())
    return *it->second;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw PluginLoadError("scheduler plugin " + path + ": no such file");
  // A bare file name is a file of the working directory; dlopen would search the library path for it.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw PluginLoadError("scheduler plugin " + path + " cannot be loaded: " + dl_error());
  const auto refuse = [&](const std::string& why) {
    dlclose(handle);
    throw PluginLoadError("scheduler plugin " + path + " " + why);
  };
  const auto version = reinterpret_cast<int (*)()>(dlsym(handle, SCHEDULER_API_VERSION_SYMBOL));
  const auto entry = reinterpret_cast<const SchedulerPlugin* (*)()>(dlsym(handle, SCHEDULER_PLUGIN_SYMBOL));
  if (!version && !entry)
    refuse(std::string("defines neither ") + SCHEDULER_PLUGIN_SYMBOL + " nor " + SCHEDULER_API_VERSION_SYMBOL +
           " (is it a plugin? its source needs ACMESIM_SCHEDULER_PLUGIN(...))");
  for (const auto& [symbol, found] : {std::pair{SCHEDULER_PLUGIN_SYMBOL, entry != nullptr},
                                      std::pair{SCHEDULER_API_VERSION_SYMBOL, version != nullptr}})
    if (!found)
      refuse(std::string("defines no ") + symbol + " (ACMESIM_SCHEDULER_PLUGIN(...) defines both: was the library "
                                                   "built from a plugin's source with these headers?)");
  // The plugin's own code runs from here: what it throws is its error, not acmesim's.
  int v = 0;
  const SchedulerPlugin* plugin = nullptr;
  try {
    v = version();
    if (v == ACMESIM_SCHEDULER_API_VERSION)
      plugin = entry();
  } catch (const std::exception& e) {
    refuse(std::string("threw from its entry point: ") + e.what());
  } catch (...) {
    refuse("threw from its entry point (not a std::exception)");
  }
  if (v != ACMESIM_SCHEDULER_API_VERSION)
    refuse("was built against scheduler interface version " + std::to_string(v) + ", and this acmesim has version " +
           std::to_string(ACMESIM_SCHEDULER_API_VERSION) + ": rebuild it against these headers");
  if (!plugin || plugin->info.name.empty() || !plugin->factory)
    refuse("gave no name or no factory");
  loaded.emplace(path, plugin);
  return *plugin;
}

} // namespace acmesim
