#include "sim/config/PowerSection.hpp"

namespace acmesim {

namespace {

// Bounds against unit errors: no GPU draws a kilowatt and a half, no server 100 kW, and a
// facility that spends nine times the servers' power on itself is a typo.
constexpr double MAX_GPU_W = 1500;
constexpr double MAX_NODE_W = 100000;
constexpr double MAX_PUE = 10;

} // namespace

const KeyTable<PowerSpec>& power_keys()
{
  using P = PowerSpec;
  static const KeyTable<P> keys({
      number_key("gpu_idle_w", &P::gpu_idle_w, number_between(0, MAX_GPU_W), "W",
                 "a GPU holding no running work (idle, stranded, spare, waiting for CPUs or for failure detection)"),
      number_key("gpu_io_w", &P::gpu_io_w, number_between(0, MAX_GPU_W), "W",
                 "a GPU moving data without computing (checkpoint write, restart, model load)"),
      number_key("gpu_busy_w", &P::gpu_busy_w, number_between(0, MAX_GPU_W), "W",
                 "a GPU computing (work kept or later lost, training slowed by the network)"),
      number_key("node_base_w", &P::node_base_w, number_between(0, MAX_NODE_W), "W",
                 "the rest of a GPU server in service (CPUs, memory, NICs, fans, power supplies)"),
      number_key("node_down_w", &P::node_down_w, number_between(0, MAX_NODE_W), "W",
                 "a server out of service (failed, under repair, cordoned), its GPUs included"),
      number_key("pue", &P::pue, number_between(1, MAX_PUE), NO_UNIT,
                 "facility power over the servers' power (cooling, distribution)"),
  });
  return keys;
}

} // namespace acmesim
