// The communication profile against values worked out by hand. The model is chosen so that the
// arithmetic is exact: hidden_per_layer = 1 makes hidden = layers = (params / 12)^(1/3), so
// 12e6 parameters are 100 layers of hidden size 100.
#include "models/network/CommProfile.hpp"

#include <cmath>

#include <catch2/catch.hpp>

using namespace acmesim;

namespace {

CommSpec cube_model()
{
  CommSpec spec;
  spec.hidden_per_layer = 1;
  return spec;
}

TrainingStep step_of(int gpus, double compute_s = 3)
{
  return TrainingStep{12e6, 1000, compute_s, gpus, 8};
}

// NVLink at `nvlink_Bps` and no latency anywhere: the cases of bytes alone.
CollectivePace lossless(double nvlink_Bps) { return {TierPace{0, nvlink_Bps}, 0}; }

} // namespace

TEST_CASE("comm profile: a one-node job is tensor parallel over NVLink and sends nothing on InfiniBand")
{
  const CommProfile p = comm_profile(cube_model(), step_of(8));
  CHECK(p.nodes == 1);
  CHECK(p.tensor_parallel == 8);
  CHECK(p.data_parallel == 1);
  CHECK(p.ib_bytes == 0);
  CHECK(p.dp_local_bytes == 0);
  // 4 all-reduces x 100 layers x 2(8-1)/8 x (1000 tokens x 100 hidden x 2 bytes)
  CHECK(p.tp_bytes == Approx(4 * 100 * 1.75 * 2e5));
  // Its step depends on NVLink only.
  CHECK(p.step_s(lossless(1.4e8), 1) == Approx(3 + 1));
  CHECK(p.step_s(lossless(1.4e8), 1e15) == p.step_s(lossless(1.4e8), 1));
  CHECK(p.step_s(lossless(0.7e8), 1) == Approx(3 + 2));
}

TEST_CASE("comm profile: across two nodes the gradients go round a ring of the nodes")
{
  const CommProfile p = comm_profile(cube_model(), step_of(16));
  CHECK(p.nodes == 2);
  CHECK(p.tensor_parallel == 8);
  CHECK(p.data_parallel == 2);
  // Each GPU holds 1/8 of the gradients (12e6 x 2 bytes / 8); the node holds all 8 shards once:
  // the ring of 2 nodes moves 2(2-1)/2 of 24e6 bytes.
  CHECK(p.ib_bytes == Approx(24e6));
  CHECK(p.dp_local_bytes == 0);
  // Two replicas share the 1000 tokens.
  CHECK(p.tp_bytes == Approx(4 * 100 * 1.75 * 1e5));
}

TEST_CASE("comm profile: data parallel ranks on one node reduce over NVLink first")
{
  CommSpec spec = cube_model();
  spec.tensor_parallel = 2;
  const CommProfile p = comm_profile(spec, step_of(8));
  CHECK(p.tensor_parallel == 2);
  CHECK(p.data_parallel == 4);
  CHECK(p.ib_bytes == 0);
  // A rank's gradients: 12e6 x 2 / 2 = 12e6 bytes, 2(4-1)/4 of them.
  CHECK(p.dp_local_bytes == Approx(18e6));
}

TEST_CASE("comm profile: TP stays inside a node even when the job's GPUs do not fill whole nodes")
{
  const CommProfile p = comm_profile(cube_model(), step_of(12));
  CHECK(p.tensor_parallel == 4); // divides both 12 and 8
  CHECK(p.data_parallel == 3);
  CHECK(p.nodes == 2);
  CHECK(p.ib_bytes > 0); // the DP group spans both nodes
}

TEST_CASE("comm profile: backward compute hides the gradient ring until it takes longer")
{
  const CommProfile p = comm_profile(cube_model(), step_of(16, 3)); // hides up to 2 s of DP traffic
  const double nv = 1e15; // NVLink out of the picture
  const double tp_s = p.tp_bytes / nv;
  CHECK(p.step_s(lossless(nv), 24e6) == Approx(3 + tp_s));    // 1 s of ring: hidden
  CHECK(p.step_s(lossless(nv), 12e6) == Approx(3 + tp_s));    // 2 s: just hidden
  CHECK(p.step_s(lossless(nv), 6e6) == Approx(3 + tp_s + 2)); // 4 s: 2 s exposed
}

TEST_CASE("comm profile: a step without GPUs, parameters, tokens or compute is refused")
{
  CHECK_THROWS_AS(comm_profile(CommSpec{}, TrainingStep{0, 1000, 3, 8, 8}), std::invalid_argument);
  CHECK_THROWS_AS(comm_profile(CommSpec{}, TrainingStep{12e6, 1000, 3, 0, 8}), std::invalid_argument);
  CHECK_THROWS_AS(comm_profile(CommSpec{}, TrainingStep{12e6, 1000, 0, 8, 8}), std::invalid_argument);
}

TEST_CASE("infiniband burst: the gradient ring hides behind the backward window left after the NVLink stages")
{
  // Two nodes, TP 8, DP 2: the ring moves 24e6 bytes per node; each GPU's node stages move
  // nothing (one DP rank a node). Compute 3 s, dp_overlap 2/3: a window of 2 s.
  const CommProfile p = comm_profile(cube_model(), step_of(16, 3));
  REQUIRE(p.dp_local_bytes == 0);
  const double nv = 1.4e8 / 2 / 0.5; // the TP all-reduces take 0.5 s: 1.4e8 / n bytes per GPU
  const Burst b = infiniband_burst(p, lossless(nv), 24e6);
  CHECK(b.critical_bytes == 0);
  CHECK(b.hidden_bytes == 24e6);
  CHECK(b.window_s == Approx(2));
  CHECK(b.base_s == Approx(3.5));
  CHECK(b.peak_Bps == 24e6);
  // One rule: the burst's step at any rate is the profile's step at that InfiniBand rate.
  for (const double rate : {48e6, 12e6, 6e6, 1e6})
    CHECK(b.step_s(rate) == Approx(p.step_s(lossless(nv), rate)));
  CHECK(b.step_s(6e6) == Approx(3.5 + 2)); // 4 s of ring, 2 s of it exposed
}

TEST_CASE("infiniband burst: NVLink node stages that overrun the window put the overrun on the critical path")
{
  // One node of 8 GPUs, TP 2, DP 4: each GPU's node stages move 18e6 bytes (above). With
  // dp_overlap 0 the window is 0 and everything is exposed; at 9e6 B/s of NVLink the stages take
  // 2 s. Compute 3 s; TP bytes: 4 x 100 layers x 2(2-1)/2 x (1000 / 4 tokens x 100 x 2) = 2e7, 2.2222 s.
  CommSpec spec = cube_model();
  spec.tensor_parallel = 2;
  spec.dp_overlap = 0;
  const CommProfile p = comm_profile(spec, step_of(8, 3));
  const Burst b = infiniband_burst(p, lossless(9e6), 1e9);
  CHECK(b.bytes() == 0); // one node: nothing on InfiniBand
  CHECK(b.window_s == 0);
  CHECK(b.base_s == Approx(3 + p.tp_bytes / 9e6 + 2));
  CHECK(b.step_s(1) == Approx(p.step_s(lossless(9e6), 1)));
  CHECK(b.step_s(1) == b.base_s); // a job on one node: its step is its base at any rate
}

TEST_CASE("infiniband burst: the same rate gives the same step, whether fewer NICs or a shared uplink set it")
{
  // One rule for one physics: a job on two 1-NIC nodes alone (peak 6e6 B/s) and the same job on
  // 4-NIC nodes behind an uplink that leaves it 6e6 B/s take the same step.
  CommSpec spec = cube_model();
  spec.dp_overlap = 0;
  const CommProfile p = comm_profile(spec, step_of(16, 3));
  const double nv = 1e15;
  const Burst one_nic = infiniband_burst(p, lossless(nv), 6e6);
  const Burst four_nics = infiniband_burst(p, lossless(nv), 24e6);
  CHECK(one_nic.step_s(one_nic.peak_Bps) == Approx(four_nics.step_s(6e6)));
  CHECK(four_nics.step_s(6e6) == Approx(3 + 24e6 / 6e6));
}

TEST_CASE("compute within a step: MFU's end-to-end step less the communication compute does not hide")
{
  // Two nodes (above): TP takes 1 s at 7e7 B/s of NVLink, the ring 2 s at 12e6 B/s, and compute's
  // last two thirds hide it. step(c) = c + 1 + max(0, 2 - 2c/3).
  const TrainingStep two_nodes = step_of(16);
  const double nv = 7e7;
  const double ib = 12e6;
  // A 10 s step: 9 s of compute hide 6 s, more than the ring's 2.
  CHECK(compute_within_step(cube_model(), two_nodes, 10, lossless(nv), ib) == Approx(9));
  // A 3.5 s step: 1.5 s of compute hide 1 s of the ring; 1.5 + 1 + 1 = 3.5.
  const double c = compute_within_step(cube_model(), two_nodes, 3.5, lossless(nv), ib);
  CHECK(c == Approx(1.5));
  // The profile built on that compute takes the step back at the same rates: one rule both ways.
  CHECK(comm_profile(cube_model(), step_of(16, c)).step_s(lossless(nv), ib) == Approx(3.5));
  // A 2.5 s step cannot hold 1 s of TP and 2 s of ring with any compute that hides part of it.
  CHECK(compute_within_step(cube_model(), two_nodes, 2.5, lossless(nv), ib) == 0);
  // With all of compute hiding the ring, the step is TP plus the longer of compute and ring.
  CommSpec all_hidden = cube_model();
  all_hidden.dp_overlap = 1;
  CHECK(compute_within_step(all_hidden, two_nodes, 3.5, lossless(nv), ib) == Approx(2.5));
  CHECK(compute_within_step(all_hidden, two_nodes, 2.5, lossless(nv), ib) == 0);
}

TEST_CASE("compute within a step: Acme's jobs at MFU 0.4 keep their step on the reference fabric")
{
  // Defaults: 4M tokens a step, 312 TFLOPS, MFU 0.4 end to end, micro-batches of 4,096 tokens; the
  // A100 + HDR calibration: NVLink at 78.6% of 300 GB/s with 4.78 us a ring step, 1.39 us a step
  // across nodes, and a ring alone gets 97.3 GB/s a node on Kalos (4 HDR NICs), 24.3 GB/s on Seren
  // (one): the figures of docs/network.md, "What this gives on Acme's clusters".
  const CollectivePace nv = collective_pace(a100_hdr_calibration(), 300e9);
  REQUIRE(nv.nvlink.busbw_Bps == Approx(235.8e9));
  const double kalos = 0.973 * 100e9;
  const double seren = kalos / 4;
  const auto mfu_step = [](double params, int gpus, double mfu) { return 6 * params * 4e6 / (gpus * 312e12 * mfu); };
  const auto profile_at = [&](double params, int gpus, double ref_Bps) {
    return comm_profile_for_step(CommSpec{}, TrainingStep{params, 4e6, 0, gpus, 8}, mfu_step(params, gpus, 0.4), nv,
                                 ref_Bps, mfu_step(params, gpus, CommSpec{}.max_compute_mfu));
  };
  // 7B on 64 GPUs: a 21.0 s step. hidden = (128 x 7e9 / 12)^(1/3) = 4211, 32.9 layers; a replica's
  // 500,000 tokens are 123 micro-batches, so 4 x 32.9 x 123 = 16,186 TP all-reduces of 7 steps each
  // way: 1.08 s of latency, and 970 GB of bus bytes per GPU at 235.8 GB/s, 4.11 s. Compute is
  // 15.84 s (30% of peak); the ring (24.5 GB a node, 0.25 s on Kalos, 1.0 s on Seren) is hidden.
  const CommProfile small = profile_at(7e9, 64, kalos);
  CHECK(small.tp_steps == Approx(4 * 32.8977 * 123 * 14).epsilon(1e-4));
  CHECK(small.tp_steps * 4.78e-6 == Approx(1.0831).epsilon(1e-3));
  CHECK(small.step_s(nv, kalos) == Approx(mfu_step(7e9, 64, 0.4)));
  CHECK(mfu_step(7e9, 64, 0.4) == Approx(21.03).epsilon(1e-3));
  CHECK(small.compute_s == Approx(15.838).epsilon(1e-3));
  CHECK(small.step_s(nv, seren) == Approx(small.step_s(nv, kalos)));
  // 123B on 1,024 GPUs timed on Kalos: 21.18 s of compute; on Seren's rate the step is 1.258 times.
  const CommProfile large = profile_at(123e9, 1024, kalos);
  CHECK(large.step_s(nv, kalos) == Approx(mfu_step(123e9, 1024, 0.4)));
  CHECK(large.compute_s == Approx(21.179).epsilon(1e-3));
  CHECK(large.step_s(nv, seren) / large.step_s(nv, kalos) == Approx(1.2584).epsilon(1e-3));
  CHECK(large.step_s(nv, seren / 2) / large.step_s(nv, seren) == Approx(1.6904).epsilon(1e-3));
  // Timed on Seren, MFU 0.4 cannot be reached: compute takes the ceiling and the step is 26.3 s.
  const CommProfile on_seren = profile_at(123e9, 1024, seren);
  CHECK(on_seren.compute_s == Approx(mfu_step(123e9, 1024, 0.72)));
  CHECK(on_seren.step_s(nv, seren) == Approx(26.287).epsilon(1e-3));
}

TEST_CASE("comm profile: each collective of a step is timed as the collective model times it")
{
  // The step model must not bypass the calibrated collectives: a job's TP all-reduces take the
  // collective model's time of one micro-batch's all-reduce among its TP GPUs, times the calls;
  // its DP ring the model's ring steps across its nodes at the calibrated latency. 7B on 16 GPUs
  // (2 nodes, TP 8, DP 2): each replica's 2M tokens are 489 micro-batches of 4,096 (the last
  // partial), and 4 x 32.9 layers of them make the calls.
  const CollectiveCalibration c = a100_hdr_calibration();
  const CommSpec spec;
  const TrainingStep step{7e9, 4e6, 10, 16, 8};
  const CommProfile p = comm_profile(spec, step);
  const double hidden = std::cbrt(128 * 7e9 / 12);
  const double calls = 4 * hidden / 128 * std::ceil(2e6 / 4096);
  const double buffer = 2e6 * hidden * 2 / std::ceil(2e6 / 4096); // one micro-batch's activations
  CollectiveNodes tp{1, 8, 300e9, 4, 25e9};
  const double tp_s = calls * collective_time(CollectiveOp::AllReduce, buffer, tp, c).time_s;
  // Across the two nodes, one DP rank a node: each of the 4 gradient buckets of 512 MiB (1.75 GB a
  // GPU) is a ring of 2 steps, each paying the network step's latency; its bytes go at the rate
  // the ring gets (here its NICs alone, at the calibrated efficiency).
  const CollectivePace pace = collective_pace(c, 300e9);
  const double rank_gradients = 7e9 * 2 / 8;
  const double buckets = std::ceil(rank_gradients / (512.0 * (1 << 20)));
  REQUIRE(p.ib_steps == Approx(buckets * 2));
  const double ib_Bps = network_pace(c, 100e9).busbw_Bps;
  // The burst's base is compute plus the TP time; the ring's latency comes off its window.
  const Burst b = infiniband_burst(p, pace, ib_Bps);
  CHECK(b.base_s == Approx(10 + tp_s).epsilon(1e-9));
  CHECK(b.window_s == Approx(spec.dp_overlap * 10 - buckets * 2 * c.network.step_latency_s).epsilon(1e-9));
  // With a calibration twice as slow on NVLink, the same job's step grows by the TP time it adds.
  CollectiveCalibration slow = c;
  slow.nvlink.efficiency /= 2;
  slow.nvlink.step_latency_s *= 2;
  const double slow_tp_s = calls * collective_time(CollectiveOp::AllReduce, buffer, tp, slow).time_s;
  CHECK(infiniband_burst(p, collective_pace(slow, 300e9), ib_Bps).base_s == Approx(10 + slow_tp_s).epsilon(1e-9));
  CHECK(slow_tp_s == Approx(2 * tp_s).epsilon(1e-9));
}

TEST_CASE("comm profile: ZeRO-3 moves 3/2 of the all-reduce's bytes, behind all of compute")
{
  CommSpec zero = cube_model();
  zero.data_parallel = DataParallelKind::Zero;
  const CommProfile p = comm_profile(zero, step_of(16, 3));
  CHECK(p.ib_bytes == Approx(1.5 * 24e6));
  CHECK(p.dp_hidden_s == Approx(3)); // 3/2 of two thirds of compute
  CHECK(p.ib_critical_bytes() == 0);
  // With nothing of backward hiding it, nothing of forward does either.
  zero.dp_overlap = 0;
  CHECK(comm_profile(zero, step_of(16, 3)).dp_hidden_s == 0);
}

TEST_CASE("comm profile: pipeline stages send activations forward and gradients back, on the critical path")
{
  // 16 GPUs, TP 8, PP 2: one replica, 50 layers a stage, 1000 tokens x 100 hidden x 2 bytes of
  // activations; no DP ring.
  CommSpec spec = cube_model();
  spec.pipeline_parallel = 2;
  const CommProfile p = comm_profile(spec, step_of(16, 3));
  CHECK(p.pipeline_parallel == 2);
  CHECK(p.data_parallel == 1);
  CHECK(p.ib_bytes == 0);
  CHECK(p.pp_bytes == Approx(2 * 2e5));
  CHECK(p.tp_bytes == Approx(4 * 50 * 1.75 * 2e5));
  const Burst b = infiniband_burst(p, lossless(1e15), 1e5);
  CHECK(b.critical_bytes == Approx(4e5));
  CHECK(b.step_s(1e5) == Approx(3 + p.tp_bytes / 1e15 + 4)); // 4e5 bytes at 1e5 B/s, all exposed
}

TEST_CASE("comm profile: a mixture-of-experts job on one NIC loses more than the same dense job")
{
  // 64 GPUs on 8 nodes, TP 8: 8 replicas of 125 tokens, 100 layers of hidden 100. EP 8, top-2:
  // each node sends 4 x 100 layers x 2 x 125 x 100 x 2 bytes x 7/8 = 17.5e6 bytes a step in its
  // all-to-alls, critical; its DP ring 2 x 7/8 x 24e6 = 42e6 bytes, behind a 2 s window.
  CommSpec moe = cube_model();
  moe.expert_parallel = 8;
  const CommProfile p = comm_profile(moe, step_of(64, 3));
  REQUIRE(p.expert_parallel == 8);
  CHECK(p.ep_bytes == Approx(17.5e6));
  CHECK(p.ib_bytes == Approx(42e6));
  const CommProfile dense = comm_profile(cube_model(), step_of(64, 3));
  CHECK(dense.ep_bytes == 0);
  const double nv = 1e15;
  const double four_nics = 24e6;
  const double one_nic = 6e6;
  // Four NICs: 0.729 s of all-to-all, the ring hidden (1.75 s in 2). One NIC: 2.917 s of
  // all-to-all and 7 s of ring, 5 of it exposed.
  CHECK(p.step_s(lossless(nv), four_nics) == Approx(3 + 17.5 / 24 + p.tp_bytes / nv));
  CHECK(p.step_s(lossless(nv), one_nic) == Approx(3 + 17.5 / 6 + 5 + p.tp_bytes / nv));
  const double moe_loss = p.step_s(lossless(nv), one_nic) / p.step_s(lossless(nv), four_nics);
  const double dense_loss = dense.step_s(lossless(nv), one_nic) / dense.step_s(lossless(nv), four_nics);
  CHECK(dense_loss == Approx(8.0 / 3).epsilon(1e-6));
  CHECK(moe_loss == Approx((3 + 17.5 / 6 + 5) / (3 + 17.5 / 24)).epsilon(1e-6));
  CHECK(moe_loss > dense_loss);
}

TEST_CASE("comm profile: an expert group inside a node keeps its all-to-all on NVLink")
{
  // One node, TP 2: 4 replicas of 250 tokens, all in one EP group of 4. Each replica's tokens go
  // 4 x 100 x 2 x 250 x 100 x 2 bytes = 4e7 in all; 3/4 of them leave their GPU for the node's other
  // replicas, over the 8 GPUs.
  CommSpec moe = cube_model();
  moe.tensor_parallel = 2;
  moe.expert_parallel = 4;
  const CommProfile p = comm_profile(moe, step_of(8, 3));
  CHECK(p.ep_bytes == 0);
  const CommProfile dense = comm_profile([] { CommSpec s = cube_model(); s.tensor_parallel = 2; return s; }(),
                                         step_of(8, 3));
  CHECK(p.tp_bytes - dense.tp_bytes == Approx(4 * 4e7 * 3 / 4 / 8));
}
