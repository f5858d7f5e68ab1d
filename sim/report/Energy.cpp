#include "sim/report/Energy.hpp"

#include <algorithm>

namespace acmesim {

namespace {

constexpr double JOULES_PER_KWH = 3.6e6;

double node_seconds_down(const StateSeconds& seconds, const Servers& servers)
{
  return seconds[static_cast<std::size_t>(GpuState::Down)] / servers.gpus_per_node;
}

// Joules over a window: every GPU at its state's power, every node at its base (or down) power.
double joules(const StateSeconds& seconds, double window_s, const PowerSpec& power, const Servers& servers)
{
  double j = 0;
  for (GpuState s : enum_values<GpuState>())
    j += seconds[static_cast<std::size_t>(s)] * gpu_power_w(power, s);
  const double down = node_seconds_down(seconds, servers);
  return j + (servers.nodes * window_s - down) * power.node_base_w + down * power.node_down_w;
}

} // namespace

Servers servers_of(const Topology& topology)
{
  const double nodes = static_cast<double>(topology.node_count());
  return Servers{nodes, nodes > 0 ? topology.total_gpus() / nodes : 8.0};
}

double gpu_power_w(const PowerSpec& power, GpuState state)
{
  switch (power_draw(state)) {
    case PowerDraw::Busy:
      return power.gpu_busy_w;
    case PowerDraw::Io:
      return power.gpu_io_w;
    case PowerDraw::Off:
      return 0;
    case PowerDraw::Idle:
      return power.gpu_idle_w;
  }
  return power.gpu_idle_w;
}

double it_power_w(const StateSeconds& seconds, double window_s, const PowerSpec& power, const Servers& servers)
{
  return window_s > 0 ? joules(seconds, window_s, power, servers) / window_s : 0.0;
}

EnergySummary summarise_energy(const Ledger& ledger, const PowerSpec& power, const Servers& servers, bool network_on)
{
  StateSeconds seconds{};
  for (GpuState s : enum_values<GpuState>())
    seconds[static_cast<std::size_t>(s)] = ledger.gpu_seconds(s);
  const double elapsed = ledger.now() - ledger.start();
  EnergySummary e;
  double gpu_joules = 0, in_service_gpu_s = 0, idle_gpu_s = 0;
  for (GpuState s : enum_values<GpuState>()) {
    const double j = seconds[static_cast<std::size_t>(s)] * gpu_power_w(power, s);
    if (state_reported(s, network_on))
      e.gpu_kwh.emplace(s, j / JOULES_PER_KWH);
    gpu_joules += j;
    if (power_draw(s) != PowerDraw::Off)
      in_service_gpu_s += seconds[static_cast<std::size_t>(s)];
    if (power_draw(s) == PowerDraw::Idle || power_draw(s) == PowerDraw::Io)
      idle_gpu_s += seconds[static_cast<std::size_t>(s)];
  }
  const double total_joules = joules(seconds, elapsed, power, servers);
  e.node_base_kwh = (total_joules - gpu_joules) / JOULES_PER_KWH;
  e.it_kwh = total_joules / JOULES_PER_KWH;
  e.pue = power.pue;
  e.facility_kwh = e.it_kwh * power.pue;
  e.mean_it_kw = elapsed > 0 ? total_joules / elapsed / 1000 : 0;
  if (ledger.has_series() && !ledger.series().empty()) {
    double peak = 0;
    const auto& series = ledger.series();
    for (std::size_t k = 0; k < series.size(); ++k) {
      const double from = ledger.start() + static_cast<double>(k) * ledger.bin_width();
      const double to = std::min(from + ledger.bin_width(), ledger.now());
      peak = std::max(peak, it_power_w(series[k], to - from, power, servers) / 1000);
    }
    e.peak_it_kw = peak;
  }
  const double in_service_node_s = servers.nodes * elapsed - node_seconds_down(seconds, servers);
  if (in_service_gpu_s > 0) {
    e.mean_gpu_w = gpu_joules / in_service_gpu_s;
    e.idle_gpu_time_share = idle_gpu_s / in_service_gpu_s;
  }
  if (in_service_node_s > 0)
    e.mean_server_w = (gpu_joules + in_service_node_s * power.node_base_w) / in_service_node_s;
  return e;
}

} // namespace acmesim
