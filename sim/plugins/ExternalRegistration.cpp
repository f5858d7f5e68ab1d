// Registers how the two kinds of external scheduler are loaded (sim/policies/ExternalSchedulers.hpp):
// C++ plugins from shared libraries, Python policies in the embedded interpreter. Both are run
// behind CheckedScheduler, which names the scheduler when it fails. This library is linked whole
// into the program, so that the linker keeps these registrations.
#include "sim/plugins/CheckedScheduler.hpp"
#include "sim/plugins/PluginLoader.hpp"
#include "sim/plugins/PythonPolicy.hpp"

namespace acmesim {

namespace {

ExternalSchedulerLoader plugin_loader()
{
  return {[](const SchedulerSpec& spec) -> const PolicyInfo& { return load_scheduler_plugin(spec.plugin).info; },
          [](const SchedulerSpec& spec, const std::map<std::string, double>& params, const Topology& topology,
             std::unique_ptr<PlacementPolicy> placement) -> std::unique_ptr<Scheduler> {
            const SchedulerPlugin& plugin = load_scheduler_plugin(spec.plugin);
            const std::string name = "plugin " + spec.plugin_as_written + " (" + plugin.info.name + ")";
            std::unique_ptr<Scheduler> made;
            try {
              made = plugin.factory(PolicyParams(params), topology, std::move(placement));
            } catch (const std::exception& e) {
              throw PluginError(name + ": its factory threw: " + e.what());
            }
            if (!made)
              throw PluginError(name + ": its factory returned no scheduler (a null pointer)");
            return std::make_unique<CheckedScheduler>(name, std::move(made));
          }};
}

ExternalSchedulerLoader python_loader()
{
  return {[](const SchedulerSpec& spec) -> const PolicyInfo& {
            return load_python_policy(spec.python, spec.python_class);
          },
          [](const SchedulerSpec& spec, const std::map<std::string, double>& params, const Topology&,
             std::unique_ptr<PlacementPolicy> placement) -> std::unique_ptr<Scheduler> {
            return std::make_unique<CheckedScheduler>(
                "python " + spec.python_as_written + " (" + spec.python_class + ")",
                make_python_scheduler(spec.python, spec.python_class, params, std::move(placement)));
          }};
}

const bool registered = [] {
  register_external_scheduler(ExternalKind::Plugin, plugin_loader());
  register_external_scheduler(ExternalKind::Python, python_loader());
  return true;
}();

} // namespace

} // namespace acmesim
