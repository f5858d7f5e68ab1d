// A job's checkpoint plan and the storage bandwidth it is planned on, worked out by hand.
#include "models/checkpoint/CheckpointMath.hpp"
#include "models/checkpoint/CheckpointPlan.hpp"
#include "models/cluster/ClusterSpec.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace acmesim;

TEST_CASE("a node's storage path is its storage NICs, or without them its compute NICs; the service caps all")
{
  PodSpec seren; // one 200 Gb/s NIC for compute and storage
  seren.compute_nics = 1;
  seren.storage_nics = 0;
  seren.nic_bandwidth_Gbps = 200;
  PodSpec kalos = seren; // four compute NICs and one 200 Gb/s storage NIC
  kalos.compute_nics = 4;
  kalos.storage_nics = 1;
  StorageSpec storage;
  storage.bandwidth_GBps = 100;

  CHECK(compute_cable_Bps(seren) == 25e9);
  CHECK(storage_cable_Bps(seren) == 0);
  CHECK(compute_cable_Bps(kalos) == 100e9);
  CHECK(storage_cable_Bps(kalos) == 25e9);
  CHECK(uncontended_storage_Bps(seren, storage, 2) == 50e9); // through the compute NIC
  CHECK(uncontended_storage_Bps(kalos, storage, 2) == 50e9); // through the storage NIC, not the 4 compute NICs
  CHECK(uncontended_storage_Bps(kalos, storage, 8) == 100e9); // the service's 100 GB/s caps 8 x 25 GB/s
  kalos.storage_nic_bandwidth_Gbps = 100;                      // a slower storage NIC
  CHECK(uncontended_storage_Bps(kalos, storage, 2) == 25e9);
}

TEST_CASE("a synchronous plan blocks for the write, an asynchronous one for the snapshot")
{
  CheckpointSpec spec;
  spec.model_sizes = {{64, 7}}; // 7B parameters x 14 bytes = 98 GB
  spec.snapshot_GBps = 25;
  spec.interval_policy = IntervalPolicy::Young;
  const double failures_per_s = 1.0 / (24 * 3600); // one a day
  const double write_Bps = 49e9;                    // 2 s per checkpoint

  spec.mode = CheckpointMode::Sync;
  const CheckpointPlan sync = plan_checkpoints(spec, 16, 2, write_Bps, failures_per_s);
  CHECK(sync.bytes == Approx(98e9));
  CHECK(sync.snapshot_s == Approx(98e9 / 2 / 25e9)); // each node's shard: 1.96 s
  CHECK(sync.interval_s == Approx(std::sqrt(2 * 2.0 * 24 * 3600)));

  spec.mode = CheckpointMode::Async;
  const CheckpointPlan async = plan_checkpoints(spec, 16, 2, write_Bps, failures_per_s);
  CHECK(async.interval_s == Approx(std::sqrt(2 * 1.96 * 24 * 3600)));
}

TEST_CASE("a plan for a job that never fails keeps the fixed interval, and Young's becomes unbounded")
{
  CheckpointSpec spec;
  spec.interval_s = 1800;
  CHECK(plan_checkpoints(spec, 8, 1, 25e9, 0).interval_s == 1800);
  spec.interval_policy = IntervalPolicy::Young;
  CHECK(std::isinf(plan_checkpoints(spec, 8, 1, 25e9, 0).interval_s));
}
