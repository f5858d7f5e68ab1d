// How rings of flows share the fabric, worked out by hand: what a ring gets on the platform
// (PlatformRings on a bare engine) and what that does to the end of training jobs (whole runs with
// the network model on). One engine per TEST_CASE, hence no SECTION: ctest runs each TEST_CASE in
// its own process.
//
// The sharing rules the hand computations use:
//  - cables are split-duplex: `<cable>_UP` leaves the lower end (node toward leaf, leaf toward
//    spine), `_DOWN` enters it; cross-leaf routes take the spine (destination index mod spines),
//    D-mod-k;
//  - rings are not SimGrid flows. What a ring gets while it sends is solved over the links its
//    flows cross (FabricSharing): each link's capacity is what a ring's flow alone gets of it, the
//    collective model's network efficiency of its bandwidth (RING_SHARE, 97.3% with the A100 + HDR
//    calibration: NCCL's bus bandwidth over the NICs', every overhead included, so a ring's
//    acknowledgements load nothing), shared among the bursts of the rings on it and the storage
//    flows on it at their SimGrid rates;
//  - storage flows are SimGrid's (3.32, LV08 as configure_flow_model() sets it): max-min fairness
//    with every flow of the same weight; each loads its own route with weight 1 and its reverse
//    route with 0.05 (cross traffic), and gets 0.97 (the bandwidth factor) of its share. Where one
//    crosses a ring's link, the link's bandwidth is lowered by what the ring holds of it: its flows
//    at their mean demand / 0.97 (weight 1 each) up to the weighted max-min level they reach with
//    the storage flows (rings_hold_Bps).
// The whole runs (sections 2 to 6) time collectives without latency and at the links' full
// bandwidth (an ideal calibration), so that their arithmetic is about sharing; section 7 runs the
// calibrated collectives.
#include "tests/support/NetworkRuns.hpp"
#include "tests/support/RingBench.hpp"

#include <catch2/catch.hpp>

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Link.hpp>

#include <map>
#include <string>
#include <vector>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// nccl-tests on 8xA100 nodes with 4 HDR NICs (NVIDIA/nccl-tests issue #119): all-reduce bus
// bandwidth about 85 GB/s on average over its sizes, 96 GB/s at best, of 100 GB/s nominal. A ring's
// bus bandwidth is the rate of its links, so an uncapped ring's per-node rate should fall within
// 15% of 85 GB/s and not above 96 GB/s + 15%. The model's exact value on a 100 GB/s node cable is
// the calibrated network efficiency's (fitted to two of that sizes: docs/network.md,
// "Collectives"): 97.3 GB/s, inside [72.25, 97.75] GB/s.
constexpr double NCCL_BUSBW_MEAN = 85e9;
constexpr double NCCL_BUSBW_BEST = 96e9;

// Opens an uncapped ring over each node set in turn (alone on the platform), reads its rate one
// second later and closes it; returns the rates in order.
std::vector<double> lone_ring_rates(RingBench& bench, const std::vector<RingLayout>& rings)
{
  std::vector<double> rates(rings.size(), -1);
  for (std::size_t i = 0; i < rings.size(); ++i) {
    const auto job = static_cast<JobId>(i);
    const double t = 2.0 * static_cast<double>(i);
    bench.at(t, [&bench, &rings, job, i] { bench.rings().open(job, rings[i], always_sending()); });
    bench.at(t + 1, [&bench, &rates, job, i] {
      rates[i] = rate_of(bench.rings(), job);
      bench.rings().close(job);
    });
  }
  bench.run_until(2.0 * static_cast<double>(rings.size()) + 1);
  return rates;
}

// Each rate is the collective model's bus bandwidth of a ring across nodes of `cable_Bps` (its
// network efficiency of the cable), and within 15% of nccl-tests' bus bandwidth for a node of that
// many HDR NICs (the figures are for four, 100e9 B/s): about the mean, not above the best.
void check_calibrated(const std::vector<double>& rates, double cable_Bps)
{
  const double scale = cable_Bps / 100e9; // of a four-NIC node
  for (const double rate : rates) {
    CHECK(rate == Approx(network_pace(a100_hdr_calibration(), cable_Bps).busbw_Bps));
    CHECK(rate == Approx(NCCL_BUSBW_MEAN * scale).epsilon(0.15));
    CHECK(rate <= NCCL_BUSBW_BEST * scale * 1.15);
  }
}

// 4 Seren nodes (one 25e9 B/s NIC), 2 to a 3-port leaf: 1 uplink of 25e9 B/s per leaf (2:1
// oversubscribed), one spine.
PodSpec two_leaves_one_uplink()
{
  PodSpec pod = seren_pod(4);
  pod.fabric.leaf_radix = 3;
  pod.fabric.nodes_per_leaf = 2;
  return pod;
}

} // namespace

// ---- 1. Calibration against nccl-tests ----

TEST_CASE("rings: calibration, an uncapped ring of 2 to 16 Kalos nodes under one leaf gets nccl-tests' bus "
          "bandwidth, 97.3% of 100 GB/s a node",
          "[rings]")
{
  // Kalos nodes (4 x 200 Gb/s NICs: a 100e9 B/s cable), on a leaf large enough to hold 16 of them
  // (64 downlinks + 16 uplinks), so that only the node cables are crossed. A ring among n nodes:
  // node i's cable UP carries flow i -> i+1 alone; every cable the same, so every flow gets 97.3%
  // of 100e9: 97.3 GB/s a node whatever n, within 15% of 85 GB/s and below 96 GB/s + 15%.
  PodSpec pod = kalos_pod(16);
  pod.fabric.leaf_radix = 80;
  pod.fabric.nodes_per_leaf = 16;
  RingBench bench(cluster_of(pod));
  REQUIRE(bench.topology().leaf_count() == 1);
  const std::vector<double> rates =
      lone_ring_rates(bench, {first_nodes(2), first_nodes(4), first_nodes(8), first_nodes(16)});
  check_calibrated(rates, 100e9); // 97.3e9
}

TEST_CASE("rings: calibration, an uncapped ring of 2 to 16 one-NIC (Seren) nodes gets a quarter of nccl-tests' bus "
          "bandwidth, within a leaf or across two",
          "[rings]")
{
  // Seren nodes: one 200 Gb/s NIC, a 25e9 B/s cable, a quarter of Kalos's. Rings of 2, 4, 8, 16
  // nodes on nodes 0.. sit under leaf 0 (20 nodes a leaf): 0.973 x 25e9 = 24.325 GB/s, within 15%
  // of 85 / 4 = 21.25 GB/s.
  // A ring over nodes 18, 19 (leaf 0) and 20, 21 (leaf 1) crosses the leaves' pooled uplinks
  // (20 x 25e9), which hold it less than its nodes' cables do: 24.325 GB/s again.
  RingBench bench(cluster_of(seren_pod(40)));
  REQUIRE(bench.topology().leaf_count() == 2);
  const std::vector<double> rates = lone_ring_rates(
      bench, {first_nodes(2), first_nodes(4), first_nodes(8), first_nodes(16), whole_nodes({18, 19, 20, 21})});
  check_calibrated(rates, 25e9); // 24.325e9
}

TEST_CASE("rings: calibration, on the Kalos preset's own fabric an uncapped ring of 2 or 4 nodes (one leaf) gets "
          "nccl-tests' bus bandwidth",
          "[rings]")
{
  // Kalos's 40-port leaves hold 5 nodes: rings over nodes 0-1 and 0-3 stay under leaf 0, as above:
  // 0.973 x 100e9 = 97.3 GB/s.
  RingBench bench(cluster_of(kalos_pod(16)));
  REQUIRE(bench.topology().nodes_of_leaf(0).size() == 5);
  const std::vector<double> rates = lone_ring_rates(bench, {first_nodes(2), first_nodes(4)});
  check_calibrated(rates, 100e9);
}

// On the Kalos preset's own fabric (5 nodes a leaf), a ring of 8 or 16 nodes crosses leaves. A
// 4-NIC node sends over 4 paths (each NIC its own address), so its traffic across leaves spreads over
// the spines; the platform pools each leaf's 20 spine cables of 25e9 B/s into one link of 500e9 B/s
// (PlatformBuilder.hpp), and the ring is held by the node cables alone: 97.3 GB/s, as inside a leaf.
// Routed through one spine cable per node pair (25e9 B/s, one port), the ring would get a quarter.
TEST_CASE("rings: calibration, an uncapped ring of 8 or 16 Kalos nodes across the preset's leaves gets nccl-tests' "
          "bus bandwidth",
          "[rings]")
{
  RingBench bench(cluster_of(kalos_pod(16)));
  REQUIRE(bench.topology().leaf_count() == 4);
  const std::vector<double> rates = lone_ring_rates(bench, {first_nodes(8), first_nodes(16)});
  check_calibrated(rates, 100e9);
}

// ---- 2. Rings across the same oversubscribed leaf uplinks share them ----

TEST_CASE("rings: two rings across the same oversubscribed leaf uplink each get half of what one gets alone", "[rings]")
{
  // 4 nodes of one 25e9 B/s NIC, 2 to a 3-port leaf: 1 uplink of 25e9 B/s per leaf (2:1
  // oversubscribed), one spine. Ring A over nodes 0 (leaf 0) and 2 (leaf 1), ring B over 1 and 3.
  //  - A alone: leaf0-spine0 UP carries 0 -> 2, as node 0's cable does: 0.973 x 25e9 = 24.325 GB/s.
  //  - A and B: leaf0-spine0 UP carries 0 -> 2 and 1 -> 3 (the same on the three other uplink
  //    directions), in lock-step: 12.1625 GB/s each, half.
  //  - A gone: B alone, 24.325 GB/s again.
  RingBench bench(cluster_of(two_leaves_one_uplink()));
  REQUIRE(bench.topology().leaf_count() == 2);
  REQUIRE(bench.topology().spine_count() == 1);
  PlatformRings& rings = bench.rings();
  std::map<std::string, double> got;
  bench.at(0, [&] { rings.open(0, whole_nodes({0, 2}), always_sending()); });
  bench.at(1, [&] {
    got["A alone"] = rate_of(rings, 0);
    rings.open(1, whole_nodes({1, 3}), always_sending());
  });
  bench.at(2, [&] {
    got["A shared"] = rate_of(rings, 0);
    got["B shared"] = rate_of(rings, 1);
    rings.close(0);
  });
  bench.at(3, [&] {
    got["B alone"] = rate_of(rings, 1);
    rings.close(1);
  });
  bench.run_until(4);
  const double alone = 25e9 * RING_SHARE;
  const double shared = 25e9 * RING_SHARE / 2;
  CHECK(got["A alone"] == Approx(alone));
  CHECK(got["A shared"] == Approx(shared));
  CHECK(got["B shared"] == Approx(shared));
  CHECK(got["B alone"] == Approx(alone));
}

TEST_CASE("rings: a paused ring carries nothing, and gets its share back when resumed, pause after pause", "[rings]")
{
  // The pod of the case above. Rings A (nodes 0, 2) and B (1, 3) share the uplinks: 12.1625 GB/s
  // each. While A is paused (a checkpoint write), B is alone on them: 24.325 GB/s; A resumed, both
  // share again. The second pause must hold as the first did.
  RingBench bench(cluster_of(two_leaves_one_uplink()));
  PlatformRings& rings = bench.rings();
  std::map<std::string, double> got;
  bench.at(0, [&] {
    rings.open(0, whole_nodes({0, 2}), always_sending());
    rings.open(1, whole_nodes({1, 3}), always_sending());
  });
  for (int pause = 1; pause <= 2; ++pause) {
    const std::string n = std::to_string(pause);
    bench.at(2 * pause - 1, [&rings, &got, n] {
      got["B shared before pause " + n] = rate_of(rings, 1);
      rings.pause(0);
    });
    bench.at(2 * pause, [&rings, &got, n] {
      got["B during pause " + n] = rate_of(rings, 1);
      rings.resume(0);
    });
  }
  bench.at(5, [&] {
    got["A resumed"] = rate_of(rings, 0);
    got["B after"] = rate_of(rings, 1);
    rings.close(0);
    rings.close(1);
  });
  bench.run_until(6);
  const double alone = 25e9 * RING_SHARE;
  const double shared = 25e9 * RING_SHARE / 2;
  for (const char* n : {"1", "2"}) {
    CHECK(got[std::string("B shared before pause ") + n] == Approx(shared));
    CHECK(got[std::string("B during pause ") + n] == Approx(alone));
  }
  CHECK(got["A resumed"] == Approx(shared));
  CHECK(got["B after"] == Approx(shared));
  CHECK(rings.open_rings() == 0);
}

TEST_CASE("rings: a storage flow beside a ring finds the link's bandwidth lowered by what the ring holds, while "
          "both run",
          "[rings]")
{
  // Two Seren nodes (25e9 B/s NIC). A ring whose flows ask 10e9 B/s each: on node 0's cable UP its
  // flow 0 -> 1 (weight 1), 10e9 / 0.97 in SimGrid's units. Beside one upload from node 0 both rise
  // to x with x + x = 25e9, so x = 12.5e9 > 10.309e9: the ring holds its 10.309e9 of the cable.
  RingBench bench(cluster_of(seren_pod(2)));
  PlatformRings& rings = bench.rings();
  simgrid::s4u::Link* up = simgrid::s4u::Link::by_name(bench.platform().compute_cables.at(0)->get_name() + "_UP");
  RingTraffic traffic = always_sending();
  traffic.mean_Bps = 10e9;
  const double held = 10e9 / 0.97;
  std::map<std::string, double> bandwidth;
  simgrid::s4u::CommPtr upload;
  StartedActions actions;
  bench.at(0, [&] {
    rings.open(0, whole_nodes({0, 1}), traffic);
    bandwidth["ring alone"] = up->get_bandwidth();
    upload = simgrid::s4u::Comm::sendto_init(bench.platform().node_hosts.at(0), bench.platform().storage_host);
    upload->set_payload_size(1'000'000'000ULL); // 1 GB through the 2 GB/s storage service: about half a second
    upload->start();
    rings.other_flow_started(
        StartedFlow{bench.platform().node_hosts.at(0), bench.platform().storage_host, upload, &actions.of(*upload)});
    bandwidth["with the upload"] = up->get_bandwidth();
  });
  bench.at(0.1, [&] {
    rings.pause(0);
    bandwidth["ring paused"] = up->get_bandwidth();
    rings.resume(0);
    bandwidth["ring resumed"] = up->get_bandwidth();
  });
  bench.at(5, [&] {
    rings.trains(); // the engine's next look after the upload ended
    bandwidth["upload ended"] = up->get_bandwidth();
    rings.close(0);
  });
  bench.run_until(6);
  CHECK(bandwidth["ring alone"] == 25e9);
  CHECK(bandwidth["with the upload"] == Approx(25e9 - held));
  CHECK(bandwidth["ring paused"] == 25e9);
  CHECK(bandwidth["ring resumed"] == Approx(25e9 - held));
  CHECK(bandwidth["upload ended"] == 25e9);
  CHECK(upload->get_state() == simgrid::s4u::Activity::State::FINISHED);
}

TEST_CASE("network: two jobs whose rings cross the same oversubscribed leaf uplink in lock-step both send at half "
          "the uplink",
          "[network]")
{
  // 4 nodes of one 8e6 B/s NIC, 2 to a leaf with one 8e6 B/s uplink. Spread placement: job 0 gets
  // nodes 0 and 2 (one per leaf), job 1 the other two, 1 and 3; both 2-node rings cross the spine.
  const Scenario s = network_scenario(one_spine_cluster(4, 2, TINY_NIC_Bps), "spread");
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 1000), make_job(1, 0, 16, 1000)}));

  // Each uplink direction carries one flow of each ring; one flow alone gets all 8e6 B/s of it, and
  // the two bursts, sent together, halve it: 4e6 B/s each. The 24e6 bytes of the ring take 6 s
  // instead of 3 s: a step of 7.00023 s against 4.00023 s, slowdown 1.74995, from t = 0 to the end.
  const double got = TINY_NIC_Bps / 2;
  const double slowdown = slowdown_at(2, got);
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  REQUIRE(r.run->jobs().record(1).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(0).end_s == Approx(1000 * slowdown)); // 1749.95 s
  CHECK(r.run->jobs().record(1).end_s == Approx(1000 * slowdown));
  CHECK(r.run->statistics().slowdown(0) == Approx(slowdown));
  CHECK(r.run->statistics().slowdown(1) == Approx(slowdown));
  // jobs.csv's bus bandwidth: what each ring got while it sent, all along.
  CHECK(r.run->statistics().ring_bandwidth_Bps(0).value() == Approx(got));
  CHECK(r.run->statistics().ring_bandwidth_Bps(1).value() == Approx(got));
  // 32 GPUs x 1000 s of work; the rest is communication.
  CHECK(r.run->ledger().gpu_seconds(GpuState::Communication) == Approx(32 * 1000 * (slowdown - 1)));
}

// ---- 2b. The same two jobs, their phases interleaved or at random ----

// The two-job case above with the jobs' phases as `phases`; returns job 0's end.
double two_jobs_on_one_uplink_end(PhaseAlignment phases)
{
  Scenario s = network_scenario(one_spine_cluster(4, 2, TINY_NIC_Bps), "spread");
  s.network.phases = phases;
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 1000), make_job(1, 0, 16, 1000)}));
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(1).end_s == Approx(r.run->jobs().record(0).end_s));
  return r.run->jobs().record(0).end_s;
}

// Interleaved (CASSINI), each ring sends while the other computes as far as the uplink allows.
// Each would send 3 s of a 4.00023 s step: together more than the uplink carries, so it never
// idles and a step is the two rings' bytes over it: 2 x 24e6 / 8e6 = 6 s, slowdown 1.49991
// (lock-step: 1.74995, 16.7% longer).
constexpr double INTERLEAVED_TWO_JOB_STEP_s = 2 * 24e6 / TINY_NIC_Bps;

TEST_CASE("network: two jobs on one uplink whose phases interleave end 14% sooner than in lock-step", "[network]")
{
  const double slowdown = INTERLEAVED_TWO_JOB_STEP_s / step_s(2, TINY_NIC_Bps);
  CHECK(two_jobs_on_one_uplink_end(PhaseAlignment::Interleaved) == Approx(1000 * slowdown)); // 1499.91 s
  CHECK(slowdown_at(2, TINY_NIC_Bps / 2) / slowdown == Approx(1.1667).epsilon(1e-3));
}

TEST_CASE("network: two jobs on one uplink at random phases end between interleaved and lock-step, as the product "
          "form says",
          "[network]")
{
  // Each is silent 1.000233 s a step (compute and TP) and sends 3 s of the uplink alone:
  // u = 2.99930. Both fill the uplink, so none, one or both send in proportion 1 : 2u : 2u^2, and a
  // burst lasts 3 x (1 + 2u) / (1 + u) = 5.24987 s (BurstSharing.cpp): a step of 6.25010 s,
  // slowdown 1.56243, against 1.49991 interleaved and 1.74995 in lock-step.
  const double silent = 1 + tp_s(2);
  const double alone = ib_bytes(2) / TINY_NIC_Bps;
  const double u = alone / silent;
  const double slowdown = (silent + alone * (1 + 2 * u) / (1 + u)) / step_s(2, TINY_NIC_Bps);
  CHECK(slowdown == Approx(1.56243).epsilon(1e-5));
  CHECK(two_jobs_on_one_uplink_end(PhaseAlignment::Random) == Approx(1000 * slowdown));
}

// ---- 3. A job inside one leaf is untouched by spine load ----

TEST_CASE("network: a job whose nodes share one leaf keeps its speed while another job's ring is throttled by the "
          "spine",
          "[network]")
{
  // 6 nodes of one 8e6 B/s NIC, 3 to a 4-port leaf: one uplink per leaf (3:1), of 4e6 B/s (half a
  // NIC). Pack placement: job 0 (2 nodes) gets nodes 0 and 1 under leaf 0; job 1 (4 nodes) finds no
  // leaf of 4 free nodes and takes leaf 1's 3, 4, 5, then leaf 0's 2: ring 2 -> 3 -> 4 -> 5 -> 2,
  // whose 2 -> 3 and 5 -> 2 cross the spine.
  // 1 s of compute for job 1 (4 nodes); job 0 alone at its reference speed whatever its compute.
  const Scenario s = network_scenario(one_spine_cluster(6, 3, TINY_NIC_Bps / 2), "pack", mfu_step_s(4, TINY_NIC_Bps));
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 500), make_job(1, 0, 32, 600)}));

  // Job 1: leaf0-spine0 UP carries 2 -> 3 alone; one flow alone gets its 4e6 B/s, half of what its
  // NICs give: its 36e6 bytes take 9 s instead of 4.5 s, a step of 10.00012 s against 5.50012 s,
  // slowdown 1.81816 all along, end 1090.90 s.
  const double slowdown_1 = slowdown_at(4, TINY_NIC_Bps / 2);
  REQUIRE(r.run->jobs().record(1).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(1).end_s == Approx(600 * slowdown_1));
  // Job 0: its flows 0 -> 1 and 1 -> 0 use only its nodes' cables, which nothing else crosses: it gets
  // its demand, runs at its reference speed and ends at its recorded 500 s.
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(0).end_s == Approx(500));
  CHECK(r.run->statistics().slowdown(0) == Approx(1));
  CHECK(r.run->statistics().ring_bandwidth_Bps(0).value() == Approx(TINY_NIC_Bps));
  CHECK(r.run->statistics().ring_bandwidth_Bps(1).value() == Approx(TINY_NIC_Bps / 2));
}

// ---- 4. A checkpoint upload on a NIC shared with storage slows training during the write ----

TEST_CASE("network: an asynchronous checkpoint upload on Seren's shared NIC slows the job's ring while it lasts",
          "[network]")
{
  // Seren-like: 2 nodes of one 8e6 B/s NIC under one leaf, no storage NIC (storage traffic leaves
  // through the compute NIC, the leaf, a spine, the spine's 25 GB/s storage cable and the 588 GB/s
  // storage service). One pretraining job of 16 GPUs and 1000 s, checkpointing asynchronously every
  // 600 s of training: a checkpoint is 12e6 params x 14 bytes = 168e6 bytes, 84e6 a node; the
  // snapshot to host memory takes 84e6 / 0.084e9 = 1 s and blocks training (ring paused); then
  // training resumes (ring sending again) while each node uploads its 84e6 bytes.
  Scenario s = network_scenario(tiny_cluster(2, 2), "pack");
  s.cluster.pods[0].compute_nics = 1;
  s.cluster.pods[0].storage_nics = 0;
  s.cluster.pods[0].nic_bandwidth_Gbps = 0.064;
  s.checkpoint.enabled = true;
  s.checkpoint.mode = CheckpointMode::Async;
  s.checkpoint.interval_policy = IntervalPolicy::Fixed;
  s.checkpoint.interval_s = 600;
  s.checkpoint.snapshot_GBps = 0.084;
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 1000, JobType::Pretrain)}));

  // [0, 600): the ring alone gets what its NIC gives: slowdown 1, progress 600 at t = 600.
  // [600, 601): snapshot. At 601 the upload and the ring start together.
  //  - Node 0's cable UP carries ring flow 0 -> 1 (its mean demand 24e6 / 4.00023 = 5.99965e6 B/s,
  //    / 0.97 in SimGrid's units) and node 0's upload (1); every other link has more room (the
  //    storage path's 25 GB/s cables, the storage service), so the ring and the upload rise
  //    together to 8e6 / 2 = 4e6 (below the ring's demand): the ring holds that, the upload gets
  //    0.97 x 4e6 = 3.88e6 B/s and lasts 84e6 / 3.88e6 = 21.6495 s, to t = 622.65.
  //  - The ring's bursts meet the upload on each node's cable UP (node 1 uploads too): one flow
  //    alone gets 8e6 B/s of it, the upload takes 3.88e6 steadily, less than half, and while the
  //    ring sends it gets the rest max-min: 4.12e6 B/s, slowdown 1.70627, so 21.6495 s of training
  //    do 12.6882 s of work;
  //  - then the ring is alone again: the remaining 1000 - 612.6882 s run at slowdown 1.
  // End = 1000 + 1 (snapshot) + 21.6495 x (1 - 1 / 1.70627) = 1009.9613 s. The next checkpoint
  // would be due at 1200 s of work, after the end.
  const double upload_Bps = 0.97 * TINY_NIC_Bps / 2;
  const double upload_s = 84e6 / upload_Bps;
  const double slowdown = slowdown_at(2, TINY_NIC_Bps - upload_Bps);
  const double end = 1000 + 1 + upload_s * (1 - 1 / slowdown);
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(0).end_s == Approx(end));
  // Training took end - 1 s of wall time for 1000 s of work.
  CHECK(r.run->statistics().slowdown(0) == Approx((end - 1) / 1000));
  CHECK(r.run->ledger().gpu_seconds(GpuState::Communication) == Approx(16 * upload_s * (1 - 1 / slowdown)));
}

// ---- 5. A rate change mid-job gives the exact end time ----

TEST_CASE("network: a job's end integrates its progress over the rates of its ring as a second job comes and goes",
          "[network]")
{
  // The pod of the two-job case above (one 8e6 B/s uplink per 2-node leaf, spread placement).
  // Job A (1000 s) starts at 0 on nodes 0 and 2; job B (300 s) arrives at 200 and gets nodes 1 and
  // 3: from then on both rings send at half the uplinks, 4e6 B/s each, slowdown s = 1.74995 for
  // both.
  //  - B ends at 200 + 300 s = 724.985 s.
  //  - A: 200 s of work in [0, 200) at speed 1; 300 s of work in [200, 724.985) at s; the other
  //    500 s alone again at speed 1: end = 724.985 + 500 = 1000 + 300 (s - 1) = 1224.985 s.
  Scenario s = network_scenario(one_spine_cluster(4, 2, TINY_NIC_Bps), "spread");
  s.output.timeline = true;
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 1000), make_job(1, 200, 16, 300)}));

  const double slowdown = slowdown_at(2, TINY_NIC_Bps / 2);
  const double end_b = 200 + 300 * slowdown;
  const double end_a = end_b + (1000 - 200 - 300);
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  REQUIRE(r.run->jobs().record(1).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(1).start_s == Approx(200));
  CHECK(r.run->jobs().record(1).end_s == Approx(end_b));
  CHECK(r.run->jobs().record(0).end_s == Approx(end_a));
  CHECK(r.run->statistics().slowdown(0) == Approx(end_a / 1000));
  CHECK(r.run->statistics().slowdown(1) == Approx(slowdown));
  // The timeline marks the changes, by job within an instant: at 200 both rings go from what the
  // fabric alone would give (1) to sharing; at B's end A is alone again. Each on the job's first node.
  const auto& marks = r.run->timeline()->speed_marks();
  REQUIRE(marks.size() == 3);
  CHECK(marks[0].job == 0);
  CHECK(marks[0].node == 0);
  CHECK(marks[1].job == 1);
  CHECK(marks[1].node == 1);
  for (const auto& m : {marks[0], marks[1]}) {
    CHECK(m.now_s == Approx(200));
    CHECK(m.from == 1);
    CHECK(m.to == Approx(slowdown));
  }
  CHECK(marks[2].job == 0);
  CHECK(marks[2].now_s == Approx(end_b));
  CHECK(marks[2].from == Approx(slowdown));
  CHECK(marks[2].to == 1);
}

// ---- 6. A single-node job depends on NVLink only ----

TEST_CASE("network: a single-node job opens no ring: NICs, their bandwidth and an oversubscribed leaf leave its end "
          "unchanged",
          "[network]")
{
  // 3 nodes of ONE 8e6 B/s NIC, under one 4-port leaf with a single uplink (3:1), timed on a
  // reference of 4 x 200 Gb/s NICs (100e9 B/s). Pack: job 0 (2 nodes) on nodes 0 and 1, job 1
  // (8 GPUs) on node 2.
  ClusterSpec cluster = one_spine_cluster(3, 3, TINY_NIC_Bps);
  Scenario s = network_scenario(cluster, "pack", mfu_step_s(2, 100e9));
  s.network.reference["tiny"].compute_nics = 4;
  s.network.reference["tiny"].nic_bandwidth_Gbps = 200;
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 16, 1000), make_job(1, 0, 8, 1000)}));

  // Job 1: TP 8 on its node, DP 1: no InfiniBand bytes, no ring; its step is compute + TP over NVLink,
  // the same here as on the reference: slowdown exactly 1, end at its recorded 1000 s.
  REQUIRE(r.run->jobs().record(1).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(1).end_s == Approx(1000));
  CHECK(r.run->statistics().slowdown(1) == 1);
  CHECK_FALSE(r.run->statistics().ring_bandwidth_Bps(1).has_value()); // one node: no ring, no bus bandwidth
  // Job 0 (the control: the reference is applied): its ring moves 24e6 bytes a step at 8e6 B/s here
  // against 100e9 on the reference: (1 + 2.333e-4 + 3) / (1 + 2.333e-4 + 2.4e-4) = 4.00023 / 1.00047
  // = 3.99834; alone it asks 6e6 B/s, less than it gets: no contention term.
  const double slowdown_0 = step_s(2, TINY_NIC_Bps) / step_s(2, 100e9);
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(0).end_s == Approx(1000 * slowdown_0)); // 3998.34 s
}

TEST_CASE("network: a single-node job on half its reference NVLink stretches by its tensor-parallel term", "[network]")
{
  // One node of 8 GPUs with 150 GB/s of NVLink per GPU, timed on 300 GB/s. A batch of 1e6 tokens
  // (hidden = layers = 100): TP bytes per GPU = 4 x 100 x 2(8-1)/8 x (1e6 x 100 x 2) = 1.4e11,
  // 0.46667 s at 300 GB/s and 0.93333 s at 150 GB/s. Step: 1 s of compute plus that, no DP term
  // (DP 1). Slowdown (1 + 0.93333) / (1 + 0.46667) = 29 / 22 = 1.31818: 1100 s end at 1450 s.
  const double tp_bytes = 4 * 100 * (2.0 * 7 / 8) * (1e6 * 100 * 2);
  Scenario s = network_scenario(tiny_cluster(1, 1), "pack", 1 + tp_bytes / 300e9);
  s.cluster.pods[0].nvlink_bandwidth_GBps = 150;
  s.network.reference["tiny"].nvlink_bandwidth_GBps = 300;
  s.checkpoint.tokens_per_step = 1e6;
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 8, 1100)}));

  const double slowdown = (1 + tp_bytes / 150e9) / (1 + tp_bytes / 300e9);
  REQUIRE(slowdown == Approx(29.0 / 22));
  REQUIRE(r.run->jobs().record(0).outcome == JobOutcome::Ended);
  CHECK(r.run->jobs().record(0).end_s == Approx(1100 * slowdown)); // 1450 s
  CHECK(r.run->statistics().slowdown(0) == Approx(slowdown));
  CHECK(r.run->ledger().gpu_seconds(GpuState::Communication) == Approx(8 * 1100 * (slowdown - 1)));
}
