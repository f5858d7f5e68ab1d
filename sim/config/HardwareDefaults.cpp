#include "sim/config/HardwareDefaults.hpp"

#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <functional>

namespace acmesim {

namespace {

// A figure of a pod's hardware, and where the scenario keeps the value it runs with.
struct Inherited {
  HardwareDefault key;
  std::string pod_field; // how messages name the pod's figure
  std::function<double(const PodSpec&, const Scenario&)> from_pod;
  std::function<double&(Scenario&)> into;
  bool zero_is_none = false; // 0 means the hardware lacks it: then the scenario must give it
};

const std::vector<Inherited>& inherited()
{
  static const std::vector<Inherited> table{
      {{"checkpoint", "peak_tflops_per_gpu"},
       "gpu.peak_tflops",
       [](const PodSpec& pod, const Scenario& s) { return pod.gpu.peak(s.checkpoint.precision); },
       [](Scenario& s) -> double& { return s.checkpoint.peak_tflops_per_gpu; },
       true},
      {{"power", "gpu_idle_w"},
       "gpu.idle_w",
       [](const PodSpec& pod, const Scenario&) { return pod.gpu.idle_w; },
       [](Scenario& s) -> double& { return s.power.gpu_idle_w; }},
      // A GPU moving data without computing draws what an idle one does (PowerSpec::gpu_io_w).
      {{"power", "gpu_io_w"},
       "gpu.idle_w",
       [](const PodSpec& pod, const Scenario&) { return pod.gpu.idle_w; },
       [](Scenario& s) -> double& { return s.power.gpu_io_w; }},
      {{"power", "gpu_busy_w"},
       "gpu.busy_w",
       [](const PodSpec& pod, const Scenario&) { return pod.gpu.busy_w; },
       [](Scenario& s) -> double& { return s.power.gpu_busy_w; }},
      {{"power", "node_base_w"},
       "node_base_w",
       [](const PodSpec& pod, const Scenario&) { return pod.node_base_w; },
       [](Scenario& s) -> double& { return s.power.node_base_w; }},
  };
  return table;
}

bool given(const MapReader& top, const HardwareDefault& key)
{
  const ConfigNode* section = top.get(key.section);
  return section && section->is_map() && section->find(key.key);
}

} // namespace

const std::vector<HardwareDefault>& hardware_defaults()
{
  static const std::vector<HardwareDefault> keys = [] {
    std::vector<HardwareDefault> k;
    for (const auto& i : inherited())
      k.push_back(i.key);
    return k;
  }();
  return keys;
}

std::string hardware_default_doc(const std::string& section, const std::string& key)
{
  for (const auto& i : inherited())
    if (i.key.section == section && i.key.key == key) {
      Scenario a100; // default pods and sections: Acme's A100 nodes
      return "the cluster's " + i.pod_field + " (A100 nodes: " + format_number(i.from_pod(PodSpec{}, a100)) + ")";
    }
  return {};
}

void apply_hardware_defaults(ConfigChecker& checker, const MapReader& top, Scenario& scenario)
{
  const auto& pods = scenario.cluster.pods;
  if (pods.empty())
    return;
  const ConfigNode* cluster = top.get("cluster");
  const std::string where = (cluster ? cluster : top.node())->where;
  for (const auto& i : inherited()) {
    if (given(top, i.key))
      continue;
    const std::string key = i.key.section + "." + i.key.key;
    const double value = i.from_pod(pods.front(), scenario);
    for (const auto& pod : pods) {
      const double other = i.from_pod(pod, scenario);
      if (other == value)
        continue;
      checker.error(where, key, "",
                    fmt::format("pods '{}' and '{}' differ in {} ({} and {}), and a run has one value: give {}",
                                pods.front().name, pod.name, i.pod_field, format_number(value), format_number(other),
                                key));
      break;
    }
    if (value == 0 && i.zero_is_none) {
      const std::string precision(to_string(scenario.checkpoint.precision));
      checker.error(where, key, "",
                    "pod '" + pods.front().name + "' has GPUs without a " + precision + " peak (gpu.peak_tflops." +
                        precision + " is 0): choose another checkpoint.precision, or give " + key);
      continue;
    }
    i.into(scenario) = value;
  }
}

} // namespace acmesim
