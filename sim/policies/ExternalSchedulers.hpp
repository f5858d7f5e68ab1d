#pragma once
// Schedulers written outside acmesim, which a scenario names by a file instead of a built-in
// name: a C++ plugin (`scheduler: {plugin: libx.so}`) or a Python policy (`{python: x.py, class:
// X}`), docs/writing-a-scheduler.md. How each kind is loaded belongs to sim/plugins/, which registers its
// loaders here when it is linked into the program; the scenario loader and the scheduler registry
// reach them only through this table, so neither depends on dynamic loading or on Python.
#include "sim/policy_api/PolicySpec.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace acmesim {

enum class ExternalKind : std::uint8_t { Plugin, Python };
constexpr auto enum_names(ExternalKind) { return names_in_order<ExternalKind>("plugin", "python"); }

// The kind of scheduler `spec` names, or nullopt for a built-in one.
std::optional<ExternalKind> external_kind(const SchedulerSpec& spec);

// An external scheduler that cannot be used: missing, not a plugin, without what it must define,
// built against another interface version, or a kind this program was built without. The message
// says which, naming the file.
class PluginLoadError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct ExternalSchedulerLoader {
  // What the scheduler `spec` names declares of itself (name, help, typed parameters), loaded once
  // per process. Throws PluginLoadError.
  std::function<const PolicyInfo&(const SchedulerSpec& spec)> declared;
  // An instance with `params` (every declared parameter), for `topology`, placing with `placement`.
  std::function<std::unique_ptr<Scheduler>(const SchedulerSpec& spec, const std::map<std::string, double>& params,
                                           const Topology& topology, std::unique_ptr<PlacementPolicy> placement)>
      make;
};

// Registers the loader of one kind, once, while the program starts.
void register_external_scheduler(ExternalKind kind, ExternalSchedulerLoader loader);
// The loader of `kind`; PluginLoadError if this program was built without it.
const ExternalSchedulerLoader& external_scheduler(ExternalKind kind);

} // namespace acmesim
