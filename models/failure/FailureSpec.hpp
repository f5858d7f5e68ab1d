#pragma once
// Typed description of how the cluster fails: which components fail, how often (time between
// failures per component instance), what a failure is reported as (category mix), how long it
// takes to notice (per category) and to repair (reboot versus part replacement).
// Defaults and their sources: docs/failures.md and ../shared/reference/models.md §1.
// Plain C++: the failure model draws from it, the simulation applies the draws.
#include "models/common/EnumNames.hpp"
#include "models/common/Random.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace acmesim {

// What fails. GPU, NVLink and NIC failures take their node out of service (the node is the
// unit that is drained and repaired); a leaf switch takes every node under it; storage takes
// the storage service (checkpoint writes and loads).
enum class Component : std::uint8_t { Node, Gpu, NvLink, Nic, LeafSwitch, Storage };
// Config and CSV names.
constexpr auto enum_names(Component)
{
  return names_in_order<Component>("node", "gpu", "nvlink", "nic", "leaf_switch", "storage");
}

// What a failure is reported as: Acme's infrastructure failure classes (NSDI'24, Table 3).
enum class FailureCategory : std::uint8_t {
  NvlinkError,
  CudaError,
  NodeFailure,
  EccError,
  NetworkError,
  ConnectionError,
  StorageError,
  NcclTimeout,
};
// Config and CSV names.
constexpr auto enum_names(FailureCategory)
{
  return names_in_order<FailureCategory>("nvlink_error", "cuda_error", "node_failure", "ecc_error", "network_error",
                                         "connection_error", "storage_error", "nccl_timeout");
}

// A positive duration distribution, in seconds.
struct DurationDistribution {
  enum class Kind : std::uint8_t { Exponential, Weibull, LogNormal, Fixed };
  Kind kind = Kind::Exponential;
  double mean_s = 3600;  // Exponential
  double shape = 1;      // Weibull k (< 1: infant mortality, > 1: wear-out)
  double scale_s = 3600; // Weibull lambda
  double median_s = 3600; // LogNormal: exp(mu)
  double sigma = 1;       // LogNormal sigma of log
  double value_s = 3600;  // Fixed

  double mean() const;
  double sample(RandomEngine& rng) const; // portable: built on uniform01
};
// Names in scenario files (`dist:`).
constexpr auto enum_names(DurationDistribution::Kind)
{
  return names_in_order<DurationDistribution::Kind>("exponential", "weibull", "lognormal", "fixed");
}

struct ComponentFailureSpec {
  bool enabled = false;
  // Time between failures of ONE instance of the component (one node, one GPU, one leaf switch).
  DurationDistribution time_between_failures;
  // Category reported for a failure of this component, with weights that sum to 1.
  std::vector<std::pair<FailureCategory, double>> categories;
  // Probability that the repair is a reboot; otherwise a part is replaced (which also cures a
  // lemon node: its excess failures stop).
  double reboot_share = 1;
  DurationDistribution reboot_time;
  DurationDistribution replacement_time;
};

// The sourced failure models a scenario starts from (`failures.model`), each calibrated to one
// published report: Acme's A100 classes at Meta RSC-1's node rate (acme) or at RSC-2's (rsc2), and
// Llama 3 405B's H100 run (llama3).
enum class FailurePreset : std::uint8_t { Acme, Rsc2, Llama3 };
constexpr auto enum_names(FailurePreset) { return names_in_order<FailurePreset>("acme", "rsc2", "llama3"); }

struct FailureSpec {
  enum class Source : std::uint8_t { None, Model, Recorded };
  Source source = Source::None;
  FailurePreset preset = FailurePreset::Acme; // Model: the defaults it started from

  // Model: indexed by Component.
  std::array<ComponentFailureSpec, enum_values<Component>().size()> components{};
  // Lemon nodes: `lemon_nodes` nodes chosen by the seed (stream "failures.lemons"), plus the
  // nodes named in `node_rate_multipliers`, fail `lemon_multiplier` times as often (node-level
  // components: node, gpu, nvlink, nic).
  int lemon_nodes = 0;
  double lemon_multiplier = 1;
  std::vector<std::pair<std::string, double>> node_rate_multipliers; // node name -> multiplier
  // Probability that a node-level failure also takes down a neighbouring node (the next node
  // on the same leaf switch, wrapping around), e.g. a shared power supply or cooling fault.
  double neighbour_probability = 0;

  // Seconds from the failure until it is noticed, per category (indexed by FailureCategory):
  // an explicit crash is seen within about a minute, a hang only when the collective times out.
  std::array<double, enum_values<FailureCategory>().size()> detection_s{};

  // Recorded: a failure list (docs/failures.md) replaces the model.
  std::string recorded_path;
};

// Defaults (sourced in docs/failures.md): the model, components and detection delays that
// `failures: {model: acme}` starts from.
FailureSpec acme_failure_defaults();
// `failures: {model: rsc2}`: the same components at Meta RSC-2's node rate, 2.34 per 1000
// node-days instead of RSC-1's 6.50 (Kokolis et al., HPCA'25); leaf switches and storage as acme's.
FailureSpec rsc2_failure_defaults();
// `failures: {model: llama3}`: Llama 3 405B's 54-day report on 16,384 H100 GPUs (2,048 nodes;
// arXiv 2407.21783, Table 5), its hardware and network interruptions as per-component rates;
// repair, detection and correlation as acme's (docs/failures.md).
FailureSpec llama3_failure_defaults();
// The defaults of one preset.
FailureSpec failure_defaults(FailurePreset preset);

} // namespace acmesim
