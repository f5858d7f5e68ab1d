#include "models/power/Energy.hpp"

namespace acmesim {

Servers servers_of(const Topology& topology)
{
  const double nodes = static_cast<double>(topology.node_count());
  return Servers{nodes, nodes > 0 ? topology.total_gpus() / nodes : 8.0};
}

double gpu_power_w(const PowerSpec& power, PowerDraw draw)
{
  switch (draw) {
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

double down_node_seconds(std::span<const DrawnSeconds> gpu_time, const Servers& servers)
{
  double off = 0;
  for (const DrawnSeconds& t : gpu_time)
    if (t.draw == PowerDraw::Off)
      off += t.gpu_s;
  return off / servers.gpus_per_node;
}

double it_joules(std::span<const DrawnSeconds> gpu_time, double window_s, const PowerSpec& power,
                 const Servers& servers)
{
  double j = 0;
  for (const DrawnSeconds& t : gpu_time)
    j += t.gpu_s * gpu_power_w(power, t.draw);
  const double down = down_node_seconds(gpu_time, servers);
  return j + (servers.nodes * window_s - down) * power.node_base_w + down * power.node_down_w;
}

double it_power_w(std::span<const DrawnSeconds> gpu_time, double window_s, const PowerSpec& power,
                  const Servers& servers)
{
  return window_s > 0 ? it_joules(gpu_time, window_s, power, servers) / window_s : 0.0;
}

} // namespace acmesim
