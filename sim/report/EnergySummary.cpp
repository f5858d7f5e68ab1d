#include "sim/report/EnergySummary.hpp"

#include <algorithm>

namespace acmesim {

std::array<DrawnSeconds, GPU_STATE_COUNT> drawn_seconds(const StateSeconds& seconds)
{
  std::array<DrawnSeconds, GPU_STATE_COUNT> drawn{};
  for (GpuState s : enum_values<GpuState>())
    drawn[static_cast<std::size_t>(s)] = {power_draw(s), seconds[static_cast<std::size_t>(s)]};
  return drawn;
}

EnergySummary summarise_energy(const Ledger& ledger, const PowerSpec& power, const Servers& servers, bool network_on)
{
  StateSeconds seconds{};
  for (GpuState s : enum_values<GpuState>())
    seconds[static_cast<std::size_t>(s)] = ledger.gpu_seconds(s);
  const auto drawn = drawn_seconds(seconds);
  const double elapsed = ledger.now() - ledger.start();
  EnergySummary e;
  double gpu_joules = 0, in_service_gpu_s = 0, idle_gpu_s = 0;
  for (GpuState s : enum_values<GpuState>()) {
    const DrawnSeconds& t = drawn[static_cast<std::size_t>(s)];
    const double j = t.gpu_s * gpu_power_w(power, t.draw);
    if (state_reported(s, network_on))
      e.gpu_kwh.emplace(s, j / JOULES_PER_KWH);
    gpu_joules += j;
    if (t.draw != PowerDraw::Off)
      in_service_gpu_s += t.gpu_s;
    if (t.draw == PowerDraw::Idle || t.draw == PowerDraw::Io)
      idle_gpu_s += t.gpu_s;
  }
  const double total_joules = it_joules(drawn, elapsed, power, servers);
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
      peak = std::max(peak, it_power_w(drawn_seconds(series[k]), to - from, power, servers) / 1000);
    }
    e.peak_it_kw = peak;
  }
  const double in_service_node_s = servers.nodes * elapsed - down_node_seconds(drawn, servers);
  if (in_service_gpu_s > 0) {
    e.mean_gpu_w = gpu_joules / in_service_gpu_s;
    e.idle_gpu_time_share = idle_gpu_s / in_service_gpu_s;
  }
  if (in_service_node_s > 0)
    e.mean_server_w = (gpu_joules + in_service_node_s * power.node_base_w) / in_service_node_s;
  return e;
}

} // namespace acmesim
