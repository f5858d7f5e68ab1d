#pragma once
// Schedulers written in Python: `scheduler: {python: policy.py, class: MyPolicy, params: {...}}`
// (docs/writing-a-scheduler.md). The file is imported once per process into an embedded interpreter
// (pybind11), the class instantiated with its parameters, and its `decide(view, events)` called
// as a built-in scheduler's decide is, deciding through the view (view.start, view.preempt,
// view.wake_at). The interpreter runs with PYTHONHASHSEED=0: a policy that iterates a set of
// strings decides the same way every run.
#include "sim/plugins/PluginLoader.hpp"
#include "sim/policy_api/PolicySpec.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

#include <map>
#include <memory>
#include <string>

namespace acmesim {

// What the class declares of itself: its name (`name`, else the class name), help (the first line
// of its docstring) and typed parameters (`params`: {name: default} or {name: {default, min, max,
// integer, help}}). PluginLoadError (naming the file, the class and the Python error) if the file
// cannot be imported or the class is missing or malformed.
const PolicyInfo& load_python_policy(const std::string& path, const std::string& class_name);

// An instance of the class, made with `params` (every declared parameter, as a dict), as a
// scheduler deciding on `topology` with `placement` for view.place. When the policy raises, the
// call throws PluginError with the Python traceback.
std::unique_ptr<Scheduler> make_python_scheduler(const std::string& path, const std::string& class_name,
                                                 const std::map<std::string, double>& params,
                                                 std::unique_ptr<PlacementPolicy> placement);

} // namespace acmesim
