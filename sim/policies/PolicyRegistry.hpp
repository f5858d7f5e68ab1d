#pragma once
// Policies by name (design principle 3). Each built-in policy registers itself in the file that
// defines it, with a static Registration:
//
//   const Registration fifo(scheduler_registry(), {"fifo", "strict submission order", {}},
//                           [](const PolicyParams&, const Topology& t, std::unique_ptr<PlacementPolicy> p) {
//                             return std::make_unique<FifoScheduler>(t, std::move(p));
//                           });
//
// so adding one is a new file (the folder's library is every .cpp in it). The scenario loader validates
// names and parameters against the registrations, `acmesim list` prints them, and the run builds
// policies from them. The policies library is linked whole (CMake WHOLE_ARCHIVE) so that no
// registration is dropped by the linker.
#include "sim/policy_api/PolicySpec.hpp"

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>

namespace acmesim {

template <typename Policy, typename... Context>
class PolicyRegistry {
public:
  using Factory = std::function<std::unique_ptr<Policy>(const PolicyParams&, Context...)>;

  // Two policies of one name are a programming error.
  void add(PolicyInfo info, Factory factory)
  {
    std::string name = info.name;
    if (!entries_.emplace(std::move(name), Entry{std::move(info), std::move(factory)}).second)
      throw std::logic_error("two policies registered as '" + info.name + "'");
  }

  // nullptr if there is no such policy.
  const PolicyInfo* find(std::string_view name) const
  {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second.info;
  }

  // Every registered policy, by name.
  std::vector<const PolicyInfo*> policies() const
  {
    std::vector<const PolicyInfo*> out;
    for (const auto& [name, entry] : entries_)
      out.push_back(&entry.info);
    return out;
  }

  std::vector<std::string> names() const
  {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_)
      out.push_back(name);
    return out;
  }

  // Builds `name` with `params`, completed by the declared defaults.
  std::unique_ptr<Policy> make(const std::string& name, const std::map<std::string, double>& params,
                               Context... context) const
  {
    const auto it = entries_.find(name);
    if (it == entries_.end())
      throw std::invalid_argument("no policy named '" + name + "' (the loader should have refused it)");
    std::map<std::string, double> complete = params;
    for (const auto& p : it->second.info.params)
      complete.try_emplace(p.name, p.default_value);
    return it->second.factory(PolicyParams(complete), std::forward<Context>(context)...);
  }

private:
  struct Entry {
    PolicyInfo info;
    Factory factory;
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

// Registers a policy when the program starts; define one per policy, in its own file.
template <typename Registry>
struct Registration {
  Registration(Registry& registry, PolicyInfo info, typename Registry::Factory factory)
  {
    registry.add(std::move(info), std::move(factory));
  }
};

} // namespace acmesim
