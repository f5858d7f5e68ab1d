// What LinkLoads reports of the NICs, worked out by hand: a ring that sends a burst a step, read
// over windows as Acme's monitor read its NICs (models/network/SampledLoad has the window
// arithmetic's own tests).
#include "sim/engine/LinkLoads.hpp"
#include "tests/support/RingBench.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("link loads: a ring that sends 6 s of every 30 s is read idle in 30% of 15 s windows and above a quarter "
          "in 44%, on each direction of both its nodes' NICs",
          "[links]")
{
  // Two Seren nodes (one 25e9 B/s NIC). Alone, the ring's flows get r = 0.973 x 25e9 = 24.325e9 B/s
  // (the calibrated network efficiency) while they send; it sends 6 s worth (6 r bytes a flow) after
  // 24 s of compute: a 30 s step. Each NIC direction carries one flow at r (a ring's acknowledgements
  // are inside its efficiency) for 6 s of every 30. A 15 s window holding o seconds of it reads
  // 24.325e9 x o / 15:
  //  - nothing when the window falls in the 24 s gap, 9 s of every 30: 30%;
  //  - above 6.25e9 (a quarter) when o > 3.8541 s: bursts starting in [0, 11.1459) or
  //    (27.8541, 30) of the window's period, 13.2919 s of 30: 44.3%.
  RingBench bench(cluster_of(seren_pod(2)));
  LinkLoads loads(bench.platform(), 15, [&bench] { return bench.rings().trains(); });
  const double rate = 25e9 * RING_SHARE;
  RingTraffic traffic;
  traffic.burst.critical_bytes = 6 * rate;
  traffic.burst.base_s = 24;
  traffic.burst.peak_Bps = rate;
  traffic.mean_Bps = 6 * rate / 30;
  NetworkLoad load;
  bench.at(0, [&] { bench.rings().open(0, whole_nodes({0, 1}), traffic); });
  bench.at(0.5, [&] { loads.sample(0); }); // the rates since the ring opened, read a round later
  bench.at(100, [&] {
    bench.rings().close(0);
    load = loads.finish(100);
  });
  bench.run_until(101);
  CHECK(load.nic_directions == 4);
  CHECK(load.nic_window_s == 15);
  CHECK(load.nic_idle_share == Approx(0.3));
  CHECK(load.nic_above_quarter_share == Approx(13.2919 / 30).epsilon(1e-4)); // 3.8541 is rounded
}
