// The communication profile against values worked out by hand. The model is chosen so that the
// arithmetic is exact: hidden_per_layer = 1 makes hidden = layers = (params / 12)^(1/3), so
// 12e6 parameters are 100 layers of hidden size 100.
#include "models/network/CommProfile.hpp"

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
  CHECK(p.step_s(1.4e8, 1) == Approx(3 + 1));
  CHECK(p.step_s(1.4e8, 1e15) == p.step_s(1.4e8, 1));
  CHECK(p.step_s(0.7e8, 1) == Approx(3 + 2));
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
  CHECK(p.step_s(nv, 24e6) == Approx(3 + tp_s));    // 1 s of ring: hidden
  CHECK(p.step_s(nv, 12e6) == Approx(3 + tp_s));    // 2 s: just hidden
  CHECK(p.step_s(nv, 6e6) == Approx(3 + tp_s + 2)); // 4 s: 2 s exposed
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
  const Burst b = infiniband_burst(p, nv, 24e6);
  CHECK(b.critical_bytes == 0);
  CHECK(b.hidden_bytes == 24e6);
  CHECK(b.window_s == Approx(2));
  CHECK(b.base_s == Approx(3.5));
  CHECK(b.peak_Bps == 24e6);
  // One rule: the burst's step at any rate is the profile's step at that InfiniBand rate.
  for (const double rate : {48e6, 12e6, 6e6, 1e6})
    CHECK(b.step_s(rate) == Approx(p.step_s(nv, rate)));
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
  const Burst b = infiniband_burst(p, 9e6, 1e9);
  CHECK(b.bytes() == 0); // one node: nothing on InfiniBand
  CHECK(b.window_s == 0);
  CHECK(b.base_s == Approx(3 + p.tp_bytes / 9e6 + 2));
  CHECK(b.step_s(1) == Approx(p.step_s(9e6, 1)));
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
  const Burst one_nic = infiniband_burst(p, nv, 6e6);
  const Burst four_nics = infiniband_burst(p, nv, 24e6);
  CHECK(one_nic.step_s(one_nic.peak_Bps) == Approx(four_nics.step_s(6e6)));
  CHECK(four_nics.step_s(6e6) == Approx(3 + 24e6 / 6e6));
}
