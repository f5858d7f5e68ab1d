#include "models/failure/FailureSpec.hpp"

#include <cmath>
#include <numbers>

namespace acmesim {

namespace {

constexpr double HOUR = 3600;

DurationDistribution exponential_hours(double mean_h)
{
  DurationDistribution d;
  d.kind = DurationDistribution::Kind::Exponential;
  d.mean_s = mean_h * HOUR;
  return d;
}

DurationDistribution lognormal_hours(double median_h, double sigma)
{
  DurationDistribution d;
  d.kind = DurationDistribution::Kind::LogNormal;
  d.median_s = median_h * HOUR;
  d.sigma = sigma;
  return d;
}

} // namespace

// --- DurationDistribution --------------------------------------------------------------------

double DurationDistribution::mean() const
{
  switch (kind) {
  case Kind::Exponential:
    return mean_s;
  case Kind::Weibull:
    return scale_s * std::tgamma(1 + 1 / shape);
  case Kind::LogNormal:
    return median_s * std::exp(sigma * sigma / 2);
  case Kind::Fixed:
    return value_s;
  }
  return 0;
}

double DurationDistribution::sample(RandomEngine& rng) const
{
  switch (kind) {
  case Kind::Exponential:
    return exponential(rng, mean_s);
  case Kind::Weibull: {
    // Inversion of the CDF 1 - exp(-(t/scale)^shape); 1 - u is in (0, 1], so the log is finite.
    const double u = uniform01(rng);
    return scale_s * std::pow(-std::log(1 - u), 1 / shape);
  }
  case Kind::LogNormal: {
    // Box-Muller with both uniforms drawn every time (no cached second variate), so each
    // sample consumes exactly two numbers and a stream's later draws never depend on parity.
    const double u1 = uniform01(rng);
    const double u2 = uniform01(rng);
    const double z = std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * std::numbers::pi * u2);
    return median_s * std::exp(sigma * z);
  }
  case Kind::Fixed:
    return value_s;
  }
  return 0;
}

// --- defaults ---------------------------------------------------------------------------------

namespace {

// Node-level hardware failures per 1000 node-days of Meta's A100 clusters (Kokolis et al.,
// HPCA'25; ../shared/reference/models.md §1.1): RSC-1 (16k GPUs) and RSC-2 (8k GPUs).
constexpr double RSC1_NODE_RATE = 6.50;
constexpr double RSC2_NODE_RATE = 2.34;

// Sources: ../shared/reference/models.md §1.5 and acme-facts.md §5; the derivation is repeated
// in docs/failures.md. Values marked (U) are assumptions. `node_rate`: node-level failures per
// 1000 node-days.
FailureSpec a100_failure_model(FailurePreset preset, double node_rate)
{
  FailureSpec spec;
  spec.source = FailureSpec::Source::Model;
  spec.preset = preset;

  // Node-level hardware failures as a Poisson process per node: at RSC-1's 6.5 per 1000
  // node-days, node MTBF = 1000 / 6.5 days = 3,692 h.
  const double node_mtbf_h = 1000.0 / node_rate * 24;
  // Split over the node-level components in proportion to Acme's infrastructure failure shares
  // (NSDI'24 Table 3, shares of failed-job GPU time, read as shares of failures (U)):
  // NVLink 30.25; GPU = CUDA 15.77 + ECC 11.00; node 14.30; NIC = network 5 + connection 3 +
  // NCCL timeout 1. S3 storage errors (~2) belong to the storage service, modelled separately.
  constexpr double nvlink = 30.25, cuda = 15.77, ecc = 11.00, node = 14.30, network = 5, connection = 3, nccl = 1;
  constexpr double gpu = cuda + ecc, nic = network + connection + nccl;
  constexpr double node_level = nvlink + gpu + node + nic; // 80.32
  // The GPU share is carried by each of 8 GPUs (Acme's nodes are 8x A100); on nodes with
  // another GPU count the node's total rate scales with it.
  constexpr double gpus_per_node = 8;

  // Repair: 70% reboot (lognormal, median 1 h) and 30% part replacement (lognormal, median
  // 48 h); sigma 1 for both (U; models.md §1.5 item 7, bounded by Schroeder & Gibson's
  // "<1 h to >1 day").
  auto component = [&](double mean_tbf_h, std::vector<std::pair<FailureCategory, double>> categories) {
    ComponentFailureSpec c;
    c.enabled = true;
    c.time_between_failures = exponential_hours(mean_tbf_h);
    c.categories = std::move(categories);
    c.reboot_share = 0.7;
    c.reboot_time = lognormal_hours(1, 1);
    c.replacement_time = lognormal_hours(48, 1);
    return c;
  };
  using FC = FailureCategory;
  auto& cs = spec.components;
  cs[static_cast<std::size_t>(Component::Node)] =
      component(node_mtbf_h * node_level / node, {{FC::NodeFailure, 1.0}}); // 20,739 h
  cs[static_cast<std::size_t>(Component::Gpu)] = // 88,626 h per GPU
      component(node_mtbf_h * node_level / gpu * gpus_per_node,
                {{FC::CudaError, cuda / gpu}, {FC::EccError, ecc / gpu}});
  cs[static_cast<std::size_t>(Component::NvLink)] =
      component(node_mtbf_h * node_level / nvlink, {{FC::NvlinkError, 1.0}}); // 9,804 h
  cs[static_cast<std::size_t>(Component::Nic)] = // 32,952 h
      component(node_mtbf_h * node_level / nic, {{FC::NetworkError, network / nic},
                                                 {FC::ConnectionError, connection / nic},
                                                 {FC::NcclTimeout, nccl / nic}});

  // Leaf (ToR) switches: 0.051% crash per switch-month (Alibaba HPN, SIGCOMM'24 §2.3), a
  // month being 730.5 h: MTBF = 730.5 / 0.00051 = 1.43 million hours. Reported as network errors.
  cs[static_cast<std::size_t>(Component::LeafSwitch)] = component(730.5 / 0.00051, {{FC::NetworkError, 1.0}});

  // Storage service: no published rate for Acme's storage (U): MTBF 2,000 h, restored by a
  // restart (lognormal, median 1 h, sigma 1).
  ComponentFailureSpec storage = component(2000, {{FC::StorageError, 1.0}});
  storage.reboot_share = 1;
  cs[static_cast<std::size_t>(Component::Storage)] = storage;

  // Lemons are off by default; when enabled, 10x (models.md §1.5 item 3, U).
  spec.lemon_nodes = 0;
  spec.lemon_multiplier = 10;
  // 3% (RSC-1) to 5% (RSC-2) of hardware failures co-occur (Kokolis): 4% take a neighbour.
  spec.neighbour_probability = 0.04;

  // Detection (models.md §1.5 item 5): explicit errors (XID, process exit, connection reset)
  // within about a minute; a hang only when the NCCL collective times out (PyTorch default
  // 10 min, kProcessGroupNCCLDefaultTimeout).
  spec.detection_s.fill(60);
  spec.detection_s[static_cast<std::size_t>(FC::NcclTimeout)] = 600;
  return spec;
}

} // namespace

FailureSpec acme_failure_defaults() { return a100_failure_model(FailurePreset::Acme, RSC1_NODE_RATE); }

FailureSpec rsc2_failure_defaults() { return a100_failure_model(FailurePreset::Rsc2, RSC2_NODE_RATE); }

// Llama 3 405B, a 54-day snapshot of a job on 16,384 H100 GPUs (2,048 nodes of 8): 419 unexpected
// interruptions, counted by cause in Table 5 (P-c, ../shared/reference/models.md §1.2). Each
// cause's count over the job's node-hours (2,048 x 54 x 24 = 2,654,208) is its component's rate:
//  - gpu: faulty GPU 148, HBM3 72, SRAM 19, GSP 17, silent data corruption 6, thermal interface
//    and sensor 6 = 268, per GPU (x 8 GPU-hours a node-hour): memory faults (HBM3, SRAM: 91)
//    reported as ecc_error, the rest (177) as cuda_error;
//  - node: unplanned host maintenance 32 and host hardware (SSD 3, power supply 3, chassis,
//    IO board, CPU and system memory 2 each) 14 = 46, node_failure;
//  - nic: NIC 7, network switch or cable 35 (the job's own link; the report does not say which
//    switches) and NCCL watchdog timeouts 7 = 49, network_error 42 and nccl_timeout 7.
// So a 2,048-node job meets 363 of the 419 in 54 days. The other 56 (software bugs 54,
// dependencies 2) are the jobs' own failures, not the cluster's: a workload's FAILED jobs carry
// them. No NVLink, leaf switch or storage cause is listed apart, so those components are off.
// Llama 3 reports "about 78%" of the 419 as hardware: GPU, host hardware and network, 324 (77.3%).
FailureSpec llama3_failure_defaults()
{
  FailureSpec spec = acme_failure_defaults();
  spec.preset = FailurePreset::Llama3;
  constexpr double node_hours = 2048.0 * 54 * 24;
  using FC = FailureCategory;
  auto& cs = spec.components;
  const auto set = [&](Component c, double mean_tbf_h, std::vector<std::pair<FailureCategory, double>> categories) {
    ComponentFailureSpec& component = cs[static_cast<std::size_t>(c)];
    component.time_between_failures = exponential_hours(mean_tbf_h);
    component.categories = std::move(categories);
  };
  constexpr double gpu_cuda = 148 + 17 + 6 + 6, gpu_memory = 72 + 19, gpu = gpu_cuda + gpu_memory;
  set(Component::Gpu, node_hours * 8 / gpu, {{FC::CudaError, gpu_cuda / gpu}, {FC::EccError, gpu_memory / gpu}});
  set(Component::Node, node_hours / 46, {{FC::NodeFailure, 1.0}});
  constexpr double network = 7 + 35, watchdog = 7;
  set(Component::Nic, node_hours / (network + watchdog),
      {{FC::NetworkError, network / (network + watchdog)}, {FC::NcclTimeout, watchdog / (network + watchdog)}});
  for (const Component off : {Component::NvLink, Component::LeafSwitch, Component::Storage})
    cs[static_cast<std::size_t>(off)].enabled = false;
  return spec;
}

FailureSpec failure_defaults(FailurePreset preset)
{
  switch (preset) {
  case FailurePreset::Acme:
    break;
  case FailurePreset::Rsc2:
    return rsc2_failure_defaults();
  case FailurePreset::Llama3:
    return llama3_failure_defaults();
  }
  return acme_failure_defaults();
}

} // namespace acmesim
