// A scheduler plugin's parameters: what it declares of them and what a scenario gives them. The
// input's first line is the declarations, `name,default,min,max,integer` separated by `;` (numbers
// as strtod reads them: nan and inf included); the rest is the YAML of the scenario's
// `scheduler.params`. The plugin is a stand-in loader that declares them, registered as C++
// plugins' loader (this harness links no real one), so the scenario loader's checks of both run.
#include "sim/config/ScenarioLoader.hpp"
#include "sim/policies/ExternalSchedulers.hpp"
#include "tests/fuzz/FuzzInput.hpp"

#include <cstdlib>
#include <sstream>
#include <string>

namespace {

acmesim::PolicyInfo declared;

acmesim::ParamSpec param_of(const std::string& text)
{
  std::istringstream in(text);
  std::string field[5];
  for (auto& f : field)
    std::getline(in, f, ',');
  acmesim::ParamSpec p;
  p.name = field[0];
  p.default_value = std::strtod(field[1].c_str(), nullptr);
  p.min_value = std::strtod(field[2].c_str(), nullptr);
  p.max_value = std::strtod(field[3].c_str(), nullptr);
  p.integer = field[4] == "1";
  p.help = "fuzzed";
  return p;
}

const bool registered = [] {
  acmesim::register_external_scheduler(
      acmesim::ExternalKind::Plugin,
      {[](const acmesim::SchedulerSpec&) -> const acmesim::PolicyInfo& { return declared; },
       [](const acmesim::SchedulerSpec&, const std::map<std::string, double>&, const acmesim::Topology&,
          std::unique_ptr<acmesim::PlacementPolicy>) { return std::unique_ptr<acmesim::Scheduler>(); }});
  return true;
}();

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text = acmesim::fuzz::text_of(data, size);
  const auto newline = text.find('\n');
  declared = acmesim::PolicyInfo{"fuzzed", "a fuzzed plugin", {}};
  std::istringstream declarations(text.substr(0, newline));
  for (std::string one; std::getline(declarations, one, ';');)
    declared.params.push_back(param_of(one));
  const std::string params = newline == std::string::npos ? "{}" : text.substr(newline + 1);
  // The plugin file must exist; what it holds is never read.
  const std::string& plugin = acmesim::fuzz::as_file(data, 0, "plugin.so");
  return acmesim::fuzz::accept_input_errors([&] {
    acmesim::load_default_scenario({"scheduler={plugin: '" + plugin + "', params: " + params + "}"});
  });
}
