#include "sim/plugins/PythonPolicy.hpp"

#include "models/common/Text.hpp"
#include "sim/plugins/PythonView.hpp"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>

namespace py = pybind11;

namespace acmesim {

namespace {

// The interpreter: started on first use, kept until the process ends (policies' objects live in
// it as long as their schedulers do).
void start_interpreter()
{
  static const bool started = [] {
    setenv("PYTHONHASHSEED", "0", 1); // sets and dicts of strings iterate the same way every run
    register_python_module();
    py::initialize_interpreter();
    py::module_::import("acmesim"); // its types are registered when it is first imported
    return true;
  }();
  (void)started;
}

// The Python error being handled, as Python prints it (with its traceback).
std::string python_error(const py::error_already_set& e)
{
  try {
    const py::list lines = py::module_::import("traceback").attr("format_exception")(e.type(), e.value(), e.trace());
    std::string text;
    for (const auto& line : lines)
      text += line.cast<std::string>();
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return text;
  } catch (const std::exception&) {
    return e.what();
  }
}

struct LoadedPolicy {
  py::object cls;
  PolicyInfo info;
};

// Policies by (path, class). Never destroyed: their objects belong to the interpreter, which
// outlives every static.
std::map<std::pair<std::string, std::string>, LoadedPolicy>& loaded_policies()
{
  static auto* loaded = new std::map<std::pair<std::string, std::string>, LoadedPolicy>();
  return *loaded;
}

// `params = {"depth": 100, "window_s": {"default": 3600, "min": 0, "max": 1e6, "help": "..."}}`.
ParamSpec param_of(const std::string& name, const py::handle& declared)
{
  ParamSpec p;
  p.name = name;
  p.min_value = -1e300;
  if (py::isinstance<py::dict>(declared)) {
    const py::dict d = py::reinterpret_borrow<py::dict>(declared);
    static constexpr std::array<std::string_view, 5> KEYS{"default", "min", "max", "integer", "help"};
    for (const auto& [key, value] : d)
      if (const std::string k = py::str(key); std::ranges::find(KEYS, k) == KEYS.end())
        throw std::invalid_argument("parameter '" + name + "' declares '" + k + "', which is not one of " +
                                    join_names(KEYS));
    if (!d.contains("default"))
      throw std::invalid_argument("parameter '" + name + "' declares no default");
    p.default_value = d["default"].cast<double>();
    p.min_value = d.contains("min") ? d["min"].cast<double>() : p.min_value;
    p.max_value = d.contains("max") ? d["max"].cast<double>() : p.max_value;
    p.integer = d.contains("integer") && d["integer"].cast<bool>();
    p.help = d.contains("help") ? d["help"].cast<std::string>() : "";
  } else {
    p.default_value = declared.cast<double>();
  }
  if (p.help.empty())
    p.help = "a parameter of the Python policy";
  return p;
}

PolicyInfo info_of(const py::object& cls, const std::string& class_name)
{
  PolicyInfo info;
  info.name = py::hasattr(cls, "name") ? cls.attr("name").cast<std::string>() : class_name;
  const py::object doc = cls.attr("__doc__");
  info.help = doc.is_none() ? "a scheduler written in Python" : doc.cast<std::string>();
  info.help = info.help.substr(0, info.help.find('\n'));
  if (py::hasattr(cls, "params"))
    for (const auto& [key, value] : cls.attr("params").cast<py::dict>())
      info.params.push_back(param_of(key.cast<std::string>(), value));
  if (!py::hasattr(cls, "decide"))
    throw std::invalid_argument("the class has no decide(self, view, events) method");
  return info;
}

const LoadedPolicy& load(const std::string& path, const std::string& class_name)
{
  auto& loaded = loaded_policies();
  if (const auto it = loaded.find({path, class_name}); it != loaded.end())
    return it->second;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw PluginLoadError("Python policy " + path + ": no such file");
  start_interpreter();
  const std::string where = "Python policy " + path + " (class " + class_name + ")";
  try {
    // Imported under a name of its own, with its directory on the path for its own imports.
    const std::string directory = std::filesystem::path(path).parent_path().string();
    py::module_::import("sys").attr("path").attr("insert")(0, directory.empty() ? "." : directory);
    const py::module_ util = py::module_::import("importlib.util");
    const py::object spec = util.attr("spec_from_file_location")(
        "acmesim_policy_" + std::to_string(loaded.size()), path);
    const py::object module = util.attr("module_from_spec")(spec);
    spec.attr("loader").attr("exec_module")(module);
    if (!py::hasattr(module, class_name.c_str()))
      throw PluginLoadError(where + ": the file defines no class " + class_name);
    const py::object cls = module.attr(class_name.c_str());
    return loaded.emplace(std::pair(path, class_name), LoadedPolicy{cls, info_of(cls, class_name)}).first->second;
  } catch (const py::error_already_set& e) {
    throw PluginLoadError(where + " cannot be loaded:\n" + python_error(e));
  } catch (const py::cast_error& e) {
    throw PluginLoadError(where + ": its name or params are not what docs/writing-a-scheduler.md describes (" + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    throw PluginLoadError(where + ": " + e.what());
  }
}

class PythonScheduler final : public Scheduler {
public:
  PythonScheduler(py::object instance, std::unique_ptr<PlacementPolicy> placement)
      : instance_(std::move(instance)), placement_(std::move(placement))
  {
  }

  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override
  {
    Decisions out;
    auto python_view = std::make_shared<PythonView>(view, *placement_, out);
    py::object returned;
    try {
      returned = instance_.attr("decide")(python_view, events);
    } catch (const py::error_already_set& e) {
      python_view->expire();
      throw std::runtime_error(python_error(e));
    }
    python_view->expire(); // a policy that keeps the view cannot use it after the call
    // Decisions are made through the view; a value returned would be silently lost.
    if (!returned.is_none())
      throw std::runtime_error("decide() returned a " + std::string(py::str(py::type::of(returned).attr("__name__"))) +
                               ", not None: a policy acts through the view (view.start, view.preempt, view.wake_at), "
                               "and nothing decide() returns is read");
    return out;
  }

private:
  py::object instance_;
  std::unique_ptr<PlacementPolicy> placement_;
};

} // namespace

const PolicyInfo& load_python_policy(const std::string& path, const std::string& class_name)
{
  return load(path, class_name).info;
}

std::unique_ptr<Scheduler> make_python_scheduler(const std::string& path, const std::string& class_name,
                                                 const std::map<std::string, double>& params,
                                                 std::unique_ptr<PlacementPolicy> placement)
{
  const LoadedPolicy& policy = load(path, class_name);
  py::dict values;
  for (const ParamSpec& p : policy.info.params) {
    const double v = params.at(p.name);
    values[p.name.c_str()] = p.integer ? py::object(py::int_(static_cast<long long>(v))) : py::object(py::float_(v));
  }
  try {
    return std::make_unique<PythonScheduler>(policy.cls(values), std::move(placement));
  } catch (const py::error_already_set& e) {
    throw std::runtime_error("Python policy " + path + " (class " + class_name + ") cannot be made:\n" +
                             python_error(e));
  }
}

} // namespace acmesim
