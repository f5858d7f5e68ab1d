// Energy of hand-computed runs (docs/energy.md): every GPU at its ledger state's power, every
// server at its base power. One TEST_CASE per process (one SimGrid engine per process).
#include "sim/report/EnergySummary.hpp"
#include "sim/report/Reports.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("energy of one job on one node, with its power model, exact")
{
  // One node of 8 GPUs; a 4-GPU job runs 0-100 s: 400 GPU-s busy, 400 idle, 100 node-seconds.
  Scenario scenario = hand_built_scenario(tiny_cluster(1, 1), "fifo");
  scenario.power = PowerSpec{.gpu_idle_w = 50, .gpu_io_w = 70, .gpu_busy_w = 300, .node_base_w = 1000, .node_down_w = 0, .pue = 1.25};
  scenario.output.utilisation_bin_s = 50;
  const Workload w = hand_built_workload({make_job(0, 0, 4, 100)});
  const RunResult r = run_simulation(scenario, w);
  const RunSummary s = summarise_run(scenario, w, r);
  const double joules = 400 * 300 + 400 * 50 + 100 * 1000; // 240,000 J
  REQUIRE(s.energy);
  CHECK(s.energy->it_kwh == Approx(joules / 3.6e6));
  CHECK(s.energy->facility_kwh == Approx(1.25 * joules / 3.6e6));
  CHECK(s.energy->gpu_kwh.at(GpuState::Busy) == Approx(120000 / 3.6e6));
  CHECK(s.energy->gpu_kwh.at(GpuState::Idle) == Approx(20000 / 3.6e6));
  CHECK(s.energy->node_base_kwh == Approx(100000 / 3.6e6));
  CHECK(s.energy->mean_it_kw == Approx(2.4));
  REQUIRE(s.energy->peak_it_kw);
  CHECK(*s.energy->peak_it_kw == Approx(2.4)); // both bins alike
  CHECK(s.energy->mean_gpu_w == Approx(175));  // (300 + 50) / 2
  CHECK(s.energy->idle_gpu_time_share == Approx(0.5));
  CHECK(s.energy->mean_server_w == Approx(2400));
  // utilisation.csv: each 50 s bin at 2.4 kW.
  std::ostringstream csv;
  write_utilisation_csv(csv, r.run->ledger(), false, &scenario.power, servers_of(*r.topology));
  CHECK(csv.str().find(",it_power_kw\n") != std::string::npos);
  CHECK(csv.str().find("0.000,50.000,4.000000,4.000000,") != std::string::npos);
  CHECK(csv.str().find(",2.400\n50.000,100.000,") != std::string::npos);
}

TEST_CASE("energy: GPUs moving data draw their own power; a node out of service draws its down power")
{
  // A ledger of three 8-GPU nodes for 100 s: one node's GPUs busy, one node's writing a
  // checkpoint, the third node down.
  Ledger ledger(24);
  ledger.move(GpuState::Idle, GpuState::Busy, 8);
  ledger.move(GpuState::Idle, GpuState::Checkpoint, 8);
  ledger.move(GpuState::Idle, GpuState::Down, 8);
  ledger.advance_to(100);
  const PowerSpec power{.gpu_idle_w = 60, .gpu_io_w = 100, .gpu_busy_w = 230, .node_base_w = 980, .node_down_w = 50, .pue = 1.0};
  const EnergySummary e = summarise_energy(ledger, power, Servers{3, 8}, false);
  // GPUs: 800 GPU-s at 230 W and 800 at 100 W; two nodes in service 100 s at 980 W; one node
  // down 100 s at 50 W.
  CHECK(e.it_kwh == Approx((800 * 230 + 800 * 100 + 200 * 980 + 100 * 50) / 3.6e6));
  CHECK(e.gpu_kwh.at(GpuState::Checkpoint) == Approx(800 * 100 / 3.6e6));
  CHECK(e.gpu_kwh.at(GpuState::Down) == 0);
  CHECK(e.mean_gpu_w == Approx(165)); // the GPUs in service
  CHECK(e.idle_gpu_time_share == Approx(0.5)); // the checkpointing GPUs do not compute
  CHECK(e.mean_server_w == Approx(165 * 8 + 980));
  CHECK_FALSE(e.peak_it_kw); // no series
  CHECK(e.gpu_kwh.count(GpuState::Communication) == 0); // not reported without the network model
}
