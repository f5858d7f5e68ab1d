#include "sim/policies/ExternalSchedulers.hpp"

#include <array>

namespace acmesim {

namespace {

// A function-local static: registrations run during static initialisation, in any order.
std::array<std::optional<ExternalSchedulerLoader>, enum_values<ExternalKind>().size()>& loaders()
{
  static std::array<std::optional<ExternalSchedulerLoader>, enum_values<ExternalKind>().size()> table;
  return table;
}

} // namespace

std::optional<ExternalKind> external_kind(const SchedulerSpec& spec)
{
  if (!spec.python.empty())
    return ExternalKind::Python;
  if (!spec.plugin.empty())
    return ExternalKind::Plugin;
  return std::nullopt;
}

void register_external_scheduler(ExternalKind kind, ExternalSchedulerLoader loader)
{
  auto& slot = loaders()[static_cast<std::size_t>(kind)];
  if (slot)
    throw std::logic_error("two loaders registered for " + std::string(to_string(kind)) + " schedulers");
  slot = std::move(loader);
}

const ExternalSchedulerLoader& external_scheduler(ExternalKind kind)
{
  const auto& slot = loaders()[static_cast<std::size_t>(kind)];
  if (!slot)
    throw PluginLoadError("this program was built without " + std::string(to_string(kind)) + " schedulers");
  return *slot;
}

} // namespace acmesim
