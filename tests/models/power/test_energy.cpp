// The power model's arithmetic (models/power/Energy.hpp), worked out by hand: what each draw costs,
// and the energy of a window in which some GPUs compute, some idle and a node is down. Runs that
// read it through the ledger: tests/sim/report/test_energy_runs.cpp.
#include "models/power/Energy.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace acmesim;

TEST_CASE("each draw costs its watts of the power section, and a GPU of a node down costs nothing")
{
  PowerSpec power;
  power.gpu_idle_w = 60;
  power.gpu_io_w = 80;
  power.gpu_busy_w = 230;
  CHECK(gpu_power_w(power, PowerDraw::Idle) == 60);
  CHECK(gpu_power_w(power, PowerDraw::Io) == 80);
  CHECK(gpu_power_w(power, PowerDraw::Busy) == 230);
  CHECK(gpu_power_w(power, PowerDraw::Off) == 0);
}

TEST_CASE("the energy of a window: every GPU at its draw, nodes in service at base power, down nodes at theirs")
{
  PowerSpec power;
  power.gpu_idle_w = 60;
  power.gpu_busy_w = 200;
  power.node_base_w = 1000;
  power.node_down_w = 100;
  const Servers servers{2, 8}; // 2 nodes of 8 GPUs over 10 s: 160 GPU-seconds
  // Node 0 computes on all its GPUs; node 1 is down for the first 5 s and idle after.
  const std::vector<DrawnSeconds> gpu_time{{PowerDraw::Busy, 80}, {PowerDraw::Off, 40}, {PowerDraw::Idle, 40}};
  CHECK(down_node_seconds(gpu_time, servers) == 5);
  // GPUs 80 x 200 + 40 x 60 = 18,400 J; nodes (20 - 5) x 1000 + 5 x 100 = 15,500 J.
  CHECK(it_joules(gpu_time, 10, power, servers) == Approx(33900));
  CHECK(it_power_w(gpu_time, 10, power, servers) == Approx(3390));
  CHECK(it_power_w(gpu_time, 0, power, servers) == 0);
}

TEST_CASE("servers_of counts the topology's nodes and its mean GPUs per node")
{
  // 2 nodes of 8 GPUs and 3 of 16: 64 GPUs on 5 nodes.
  const Servers s = servers_of(Topology(acmesim::testing::two_pod_cluster()));
  CHECK(s.nodes == 5);
  CHECK(s.gpus_per_node == Approx(12.8));
}
