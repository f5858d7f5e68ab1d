#include "sim/config/PowerSection.hpp"

#include "sim/config/HardwareDefaults.hpp"
#include "sim/config/PhysicalRanges.hpp"

namespace acmesim {

namespace {

// A facility that spends nine times the servers' power on itself is a typo.
constexpr double MAX_PUE = 10;

} // namespace

const KeyTable<PowerSpec>& power_keys()
{
  using P = PowerSpec;
  const auto hardware = [](ConfigKey<P> key) { return from_hardware("power", std::move(key)); };
  static const KeyTable<P> keys({
      hardware(number_key("gpu_idle_w", &P::gpu_idle_w, physical::GPU_WATTS, "W",
                          "a GPU holding no running work (idle, stranded, spare, waiting for CPUs or for failure "
                          "detection)")),
      hardware(number_key("gpu_io_w", &P::gpu_io_w, physical::GPU_WATTS, "W",
                          "a GPU moving data without computing (checkpoint write, restart, model load)")),
      hardware(number_key("gpu_busy_w", &P::gpu_busy_w, physical::GPU_WATTS, "W",
                          "a GPU computing (work kept or later lost, training slowed by the network)")),
      hardware(number_key("node_base_w", &P::node_base_w, physical::NODE_WATTS, "W",
                          "the rest of a GPU server in service (CPUs, memory, NICs, fans, power supplies)")),
      number_key("node_down_w", &P::node_down_w, physical::NODE_WATTS, "W",
                 "a server out of service (failed, under repair, cordoned), its GPUs included"),
      number_key("pue", &P::pue, number_between(1, MAX_PUE), NO_UNIT,
                 "facility power over the servers' power (cooling, distribution)"),
  });
  return keys;
}

} // namespace acmesim
