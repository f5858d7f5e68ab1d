#include "sim/config/HardwareDefaults.hpp"

#include "models/common/Text.hpp"

#include <fmt/format.h>

namespace acmesim {

namespace {

// A figure of a pod's hardware (at the scenario's precision), and where the scenario keeps the
// value it runs with.
struct Inherited {
  HardwareDefault key;
  const char* pod_field; // how messages name the pod's figure
  double (*from_pod)(const PodSpec&, Precision);
  double& (*into)(Scenario&);
  bool zero_is_none = false; // 0 means the hardware lacks it: then the scenario must give it
};

double gpu_peak(const PodSpec& pod, Precision p) { return pod.gpu.peak(p); }
double gpu_idle(const PodSpec& pod, Precision) { return pod.gpu.idle_w; }
double gpu_busy(const PodSpec& pod, Precision) { return pod.gpu.busy_w; }
double node_base(const PodSpec& pod, Precision) { return pod.node_base_w; }

const std::vector<Inherited>& inherited()
{
  // A GPU moving data without computing draws what an idle one does (PowerSpec::gpu_io_w).
  static const std::vector<Inherited> table{
      {{"checkpoint", "peak_tflops_per_gpu"}, "gpu.peak_tflops", gpu_peak,
       [](Scenario& s) -> double& { return s.checkpoint.peak_tflops_per_gpu; }, true},
      {{"power", "gpu_idle_w"}, "gpu.idle_w", gpu_idle, [](Scenario& s) -> double& { return s.power.gpu_idle_w; }},
      {{"power", "gpu_io_w"}, "gpu.idle_w", gpu_idle, [](Scenario& s) -> double& { return s.power.gpu_io_w; }},
      {{"power", "gpu_busy_w"}, "gpu.busy_w", gpu_busy, [](Scenario& s) -> double& { return s.power.gpu_busy_w; }},
      {{"power", "node_base_w"}, "node_base_w", node_base,
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
      // A pod as it starts, at the precision a scenario starts with: Acme's A100 nodes, bf16.
      return std::string("the cluster's ") + i.pod_field +
             " (A100 nodes: " + format_number(i.from_pod(PodSpec{}, CheckpointSpec{}.precision)) + ")";
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
  const Precision precision = scenario.checkpoint.precision;
  for (const auto& i : inherited()) {
    if (given(top, i.key))
      continue;
    const std::string key = i.key.section + "." + i.key.key;
    const double value = i.from_pod(pods.front(), precision);
    for (const auto& pod : pods) {
      const double other = i.from_pod(pod, precision);
      if (other == value)
        continue;
      checker.error(where, key, "",
                    fmt::format("pods '{}' and '{}' differ in {} ({} and {}), and a run has one value: give {}",
                                pods.front().name, pod.name, i.pod_field, format_number(value), format_number(other),
                                key));
      break;
    }
    if (value == 0 && i.zero_is_none) {
      const std::string name(to_string(precision));
      checker.error(where, key, "",
                    "pod '" + pods.front().name + "' has GPUs without a " + name + " peak (gpu.peak_tflops." + name +
                        " is 0): choose another checkpoint.precision, or give " + key);
      continue;
    }
    i.into(scenario) = value;
  }
}

} // namespace acmesim
