#pragma once
// Figures the rest of a scenario takes from its cluster's hardware (each pod's `gpu:` and
// `node_base_w`, configs/clusters/) unless the scenario gives them: the step model's peak
// (checkpoint.peak_tflops_per_gpu, the GPUs' peak at checkpoint.precision) and the power model's
// watts (power.gpu_idle_w, gpu_io_w, gpu_busy_w, node_base_w). A run has one step model and one
// power model, so pods of different hardware must agree on each figure left to them; where they
// do not, the scenario must give it, and is told so.
#include "sim/config/Scenario.hpp"
#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/ConfigKey.hpp"

#include <string>
#include <vector>

namespace acmesim {

// A key of another section whose default is the hardware's: `section.key`.
struct HardwareDefault {
  std::string section;
  std::string key;
};

// The keys apply_hardware_defaults fills, in its order.
const std::vector<HardwareDefault>& hardware_defaults();

// The reference's default for one of them: "the cluster's gpu.idle_w (A100 nodes: 60)", the figure
// of the A100 nodes every pod has unless it says otherwise.
std::string hardware_default_doc(const std::string& section, const std::string& key);

// `key` of `section`, one of hardware_defaults(), declared with that default in the reference.
template <typename Spec>
ConfigKey<Spec> from_hardware(const std::string& section, ConfigKey<Spec> key)
{
  std::string doc = hardware_default_doc(section, key.name());
  return std::move(key).default_is(std::move(doc));
}

// Fills each of them the scenario's text (`top`, the file's top-level map) does not give from the
// pods of scenario.cluster; reports pods that disagree, or GPUs without the chosen precision, at
// the cluster section.
void apply_hardware_defaults(ConfigChecker& checker, const MapReader& top, Scenario& scenario);

} // namespace acmesim
