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
  CHECK(job_speed(p, nv, 6e6, nv, 24e6).fabric_slowdown == Approx((5 + tp_s) / (3 + tp_s)));
  CHECK(job_speed(p, nv, 24e6, nv, 24e6).fabric_slowdown == 1);
  // At its reference speed the job asks 24e6 bytes per step of each node's InfiniBand.
  CHECK(job_speed(p, nv, 24e6, nv, 24e6).demand_Bps == Approx(24e6 / (3 + tp_s)));
}

TEST_CASE("comm profile: a step without GPUs, parameters, tokens or compute is refused")
{
  CHECK_THROWS_AS(comm_profile(CommSpec{}, TrainingStep{0, 1000, 3, 8, 8}), std::invalid_argument);
  CHECK_THROWS_AS(comm_profile(CommSpec{}, TrainingStep{12e6, 1000, 3, 0, 8}), std::invalid_argument);
  CHECK_THROWS_AS(comm_profile(CommSpec{}, TrainingStep{12e6, 1000, 0, 8, 8}), std::invalid_argument);
}

TEST_CASE("job speed: the fabric slowdown and the demand follow from the step at the job's own bandwidths")
{
  // Two nodes, compute 3 s, DP ring 24e6 bytes per node; dp_overlap 0 so nothing hides it.
  CommSpec spec = cube_model();
  spec.dp_overlap = 0;
  const CommProfile p = comm_profile(spec, step_of(16));
  const double nvlink = 1e15; // the TP term vanishes
  // Reference: 24e6 B/s per node -> the ring takes 1 s, step 4 s. Own fabric at half: step 5 s.
  const JobSpeed s = job_speed(p, nvlink, 12e6, nvlink, 24e6);
  CHECK(s.fabric_slowdown == Approx(5.0 / 4.0));
  CHECK(s.demand_Bps == Approx(24e6 / 5));
  // Getting the demand or more changes nothing; getting half of it doubles the step.
  CHECK(contended_slowdown(s, s.demand_Bps) == s.fabric_slowdown);
  CHECK(contended_slowdown(s, 2 * s.demand_Bps) == s.fabric_slowdown);
  CHECK(contended_slowdown(s, s.demand_Bps / 2) == Approx(2 * 5.0 / 4.0));
}

TEST_CASE("job speed: a one-node job has no InfiniBand demand and only its NVLink term")
{
  const CommProfile p = comm_profile(cube_model(), step_of(8));
  const JobSpeed s = job_speed(p, 0.7e8, 1, 1.4e8, 1);
  CHECK(s.demand_Bps == 0);
  CHECK(s.fabric_slowdown == Approx(5.0 / 4.0));
  CHECK(contended_slowdown(s, 0) == s.fabric_slowdown);
}
