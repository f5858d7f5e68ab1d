// Whole runs with the network model on, worked out by hand. One TEST_CASE per process.
#include "models/network/Collectives.hpp"
#include "sim/report/Reports.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

TEST_CASE("network: a two-node job on half its reference NICs stretches by its step's slower ring, booked as "
          "communication, with each collective timed as the calibrated collective model times it")
{
  // Two nodes of 8 GPUs on one leaf, one NIC of 8e6 bytes/s each; the job was timed on two.
  ClusterSpec cluster = tiny_cluster(2, 2);
  cluster.pods[0].compute_nics = 1;
  cluster.pods[0].nic_bandwidth_Gbps = 0.064;
  Scenario s = hand_built_scenario(cluster, "fifo");
  s.network.model = NetworkModel::Flows;
  s.network.reference["tiny"].compute_nics = 2;
  // A model of 12e6 parameters with hidden = layers = 100 (hidden_per_layer 1), 1000 tokens and
  // 3 s of compute per step, nothing hiding the gradient ring; the default (A100 + HDR) collectives.
  // TP 8 on each node, DP 2 across them. TP: 4 all-reduces a layer, each of one micro-batch's
  // 500 tokens x 100 x 2 bytes (one micro-batch: 500 tokens fit in 4,096), timed by the collective
  // model among the node's 8 GPUs: 14 steps of 4.78 us and 2(8-1)/8 x 1e5 bytes at 78.6% of
  // 300 GB/s, 67.7 us, 400 times: 27.1 ms. The ring of the two nodes moves 2(2-1)/2 of the node's
  // 12e6 x 2 bytes of gradients, one bucket: 2 steps of 1.39 us and 24e6 bytes at what a ring gets
  // of its node's cable alone, the calibrated network efficiency (97.3%).
  const CollectiveCalibration c = a100_hdr_calibration();
  const double tp_s =
      400 * collective_time(CollectiveOp::AllReduce, 1e5, CollectiveNodes{1, 8, 300e9, 1, 8e6}, c).time_s;
  REQUIRE(tp_s == Approx(400 * (14 * 4.78e-6 + 1.75e5 / (0.786 * 300e9))));
  const double ring_latency_s = 2 * c.network.step_latency_s;
  const double share = c.network.efficiency;
  const double step_here = 3 + tp_s + ring_latency_s + 24e6 / (8e6 * share);
  const double step_reference = 3 + tp_s + ring_latency_s + 24e6 / (16e6 * share);
  s.network.comm.hidden_per_layer = 1;
  s.network.comm.dp_overlap = 0;
  s.checkpoint.model_sizes = {{1000, 0.012}};
  s.checkpoint.tokens_per_step = 1000;
  // The training model's step is end to end, on the reference: 3 s of compute and the rest.
  s.checkpoint.step_time_s = step_reference;
  const Workload workload = hand_built_workload({make_job(0, 0, 16, 1000)});
  const RunResult r = run_simulation(s, workload);

  const double slowdown = step_here / step_reference;
  // Alone, the ring gets what it asks (24e6 / step_here < 8e6 x share): no contention term.
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(0).end_s == Approx(1000 * slowdown));
  CHECK(r.run->statistics().slowdown(0) == Approx(slowdown));
  // The work itself is 16 GPUs x 1000 s; everything beyond it is communication.
  CHECK(r.run->ledger().gpu_seconds(GpuState::Busy) == Approx(16 * 1000.0));
  CHECK(r.run->ledger().gpu_seconds(GpuState::Communication) == Approx(16 * 1000 * (slowdown - 1)));

  // summary.json's network section says the same, and how loaded the cables were.
  const RunSummary summary = summarise_run(s, workload, r);
  REQUIRE(summary.network);
  const NetworkSummary& network = *summary.network;
  CHECK(network.slowdown.all.count == 1);
  CHECK(*network.slowdown.by_type.at(JobType::Other).max == Approx(slowdown));
  CHECK(network.communication_gpu_hours == Approx(16 * 1000 * (slowdown - 1) / 3600));
  // For the whole run each node's cable carries, in each direction, one flow of the ring at
  // 24e6 bytes per step (its acknowledgements are inside the ring's efficiency), over 8e6 bytes/s.
  const double utilisation = 24e6 / step_here / 8e6;
  REQUIRE(network.busiest_links.size() == 4);
  for (const BusyLink& link : network.busiest_links) {
    CHECK(link.bandwidth_GBps == Approx(8e-3));
    CHECK(link.mean_utilisation == Approx(utilisation));
  }
  CHECK(network.busiest_links[0].link == "tiny-n0-leaf0_DOWN");
  CHECK(network.nic_utilisation.directions == 4);
  CHECK(network.nic_utilisation.idle_share == 0);
  CHECK(network.nic_utilisation.above_quarter_share == (utilisation > 0.25 ? 1 : 0));
  CHECK(network.nic_utilisation.mean == Approx(utilisation));
}
