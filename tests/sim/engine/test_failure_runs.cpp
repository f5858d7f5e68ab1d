// Failures, checkpoints and recovery through the SimGrid engine, on clusters small enough to
// work out by hand. One TEST_CASE per process (one engine per process): no SECTIONs here.
// Storage flows as in tests/support/StorageCluster.hpp.
#include "sim/report/Reports.hpp"
#include "tests/support/RecordedFailures.hpp"
#include "tests/support/SimRun.hpp"
#include "tests/support/StorageCluster.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// The shared round-number recovery, with automatic diagnosis in 120 s and one hot spare per pod.
Scenario with_spare(Scenario s, const std::string& recovery, std::vector<FailureEvent> failures)
{
  s = with_failures(std::move(s), recovery, std::move(failures));
  s.recovery.params["diagnosis_s"] = 120;
  s.recovery.params["spare_nodes"] = 1;
  return s;
}

// Pretraining jobs of up to 16 GPUs train a 10B model: 140 GB checkpoints every 1000 s of training.
Scenario with_checkpoints(Scenario s, CheckpointMode mode)
{
  s.checkpoint.enabled = true;
  s.checkpoint.model_sizes = {{16, 10}};
  s.checkpoint.mode = mode;
  s.checkpoint.interval_policy = IntervalPolicy::Fixed;
  s.checkpoint.interval_s = 1000;
  s.checkpoint.init_s = 100;
  return s;
}

const JobFaultStats& stats_of(const RunResult& r, JobId id)
{
  const JobFaultStats* s = r.run->statistics().fault_stats(id);
  REQUIRE(s != nullptr);
  return *s;
}

} // namespace

TEST_CASE("a checkpointing job without failures loses nothing and pays only its checkpoints")
{
  Scenario s = with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Sync);
  const Workload w = hand_built_workload({make_job(0, 0, 16, 2500, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);

  // Two checkpoints (at 1000 and 2000 s of training), each 70 GB per node through its own NIC.
  const double write = 70e9 / (NIC_BPS * LV08_EFFICIENCY);
  const Ledger& ledger = r.run->ledger();
  CHECK(r.makespan_s == Approx(2500 + 2 * write));
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(16 * 2500));
  CHECK(ledger.gpu_seconds(GpuState::Checkpoint) == Approx(16 * 2 * write));
  for (GpuState lost : {GpuState::LostWork, GpuState::Detection, GpuState::WaitingForPerson, GpuState::Restart,
                        GpuState::Down})
    CHECK(ledger.gpu_seconds(lost) == 0);
  const JobFaultStats& f = stats_of(r, 0);
  CHECK(f.checkpoints == 2);
  CHECK(f.interruptions == 0);
  CHECK(f.lost_s == 0);
  check_ledger_total(r);
}

TEST_CASE("manual recovery of a job without checkpoints: every lost GPU-second worked out by hand")
{
  // j0 takes both nodes at 0 for 10000 s. tiny-n1 crashes at 3000 (repaired at 3100): 3000 s of
  // work on 16 GPUs are lost; the 8 GPUs j0 keeps on tiny-n0 wait 60 s for detection and 600 s
  // for a person; j0 is resubmitted at 3660, starts at once, passes a 60 s health check and
  // trains 10000 s.
  Scenario s = with_spare(hand_built_scenario(tiny_cluster(2, 2), "fifo"), "manual",
                             {failure(3000, Component::Node, 1, FailureCategory::NodeFailure, 100)});
  const Workload w = hand_built_workload({make_job(0, 0, 16, 10000, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);

  const double restart_at = 3000 + 60 + 600;
  CHECK(r.run->jobs().record(0).end_s == Approx(restart_at + 60 + 10000));
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == Approx(16 * 3000));
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(16 * 10000));
  CHECK(ledger.gpu_seconds(GpuState::Detection) == Approx(8 * 60));
  CHECK(ledger.gpu_seconds(GpuState::WaitingForPerson) == Approx(8 * 600));
  CHECK(ledger.gpu_seconds(GpuState::Restart) == Approx(16 * 60));
  CHECK(ledger.gpu_seconds(GpuState::Down) == Approx(8 * 100));
  CHECK(ledger.gpu_seconds(GpuState::Idle) == Approx(8 * (restart_at - 3100)));
  const JobFaultStats& f = stats_of(r, 0);
  CHECK(f.interruptions == 1);
  CHECK(f.lost_s == Approx(3000));
  CHECK(f.detection_s == Approx(60));
  CHECK(f.waiting_for_person_s == Approx(600));
  CHECK(f.restart_s == Approx(60));
  check_ledger_total(r);
}

TEST_CASE("multifactor with manual recovery: the requeued pretraining job holds the reservation and evaluation backfills")
{
  // As above, j0 (pretraining, both nodes) loses tiny-n1 at 3000 and is resubmitted at 3660.
  // j1 (evaluation, 8 GPUs, 100 s) arrives at 3650 and takes tiny-n1, back since 3100, to 3750.
  // At 3660 j0 comes first by priority but does not fit before 3750: it is reserved then, and j2
  // (evaluation, 8 GPUs, 50 s, queued since 3655) backfills on tiny-n0, ending at 3710.
  Scenario s = with_spare(hand_built_scenario(tiny_cluster(2, 2), "multifactor"), "manual",
                             {failure(3000, Component::Node, 1, FailureCategory::NodeFailure, 100)});
  const Workload w = hand_built_workload({make_job(0, 0, 16, 10000, JobType::Pretrain),
                                          make_job(1, 3650, 8, 100, JobType::Eval),
                                          make_job(2, 3655, 8, 50, JobType::Eval)});
  const RunResult r = run_simulation(s, w);

  const JobTable& jobs = r.run->jobs();
  CHECK(jobs.record(1).start_s == 3650);
  CHECK(jobs.record(2).start_s == 3660);
  CHECK(jobs.record(2).end_s == 3710);
  CHECK(jobs.record(0).end_s == Approx(3750 + 60 + 10000));
  CHECK(r.run->ledger().gpu_seconds(GpuState::LostWork) == Approx(16 * 3000));
  check_ledger_total(r);
}

TEST_CASE("auto recovery with synchronous checkpoints: lost work is what was trained since the last checkpoint")
{
  // Checkpoints end at 1000 + w and 2000 + 2w (w: one write). tiny-n1 crashes at 2500: the job
  // trained 500 - 2w s since the checkpoint of progress 2000. Detection 60 s + diagnosis 120 s,
  // requeue at 2680 (tiny-n1 is back at 2600), health check 60 + initialisation 100, load w,
  // then 8000 s of training with checkpoints at 3000 ... 9000 (7 of them).
  Scenario s = with_spare(with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Sync),
                             "auto", {failure(2500, Component::Node, 1, FailureCategory::NodeFailure, 100)});
  const Workload w = hand_built_workload({make_job(0, 0, 16, 10000, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);

  const double write = 70e9 / (NIC_BPS * LV08_EFFICIENCY);
  const Ledger& ledger = r.run->ledger();
  CHECK(r.run->jobs().record(0).end_s == Approx(2680 + 160 + write + 8000 + 7 * write));
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == Approx(16 * (500 - 2 * write)));
  CHECK(ledger.gpu_seconds(GpuState::Checkpoint) == Approx(16 * 9 * write));
  CHECK(ledger.gpu_seconds(GpuState::Detection) == Approx(8 * 180));
  CHECK(ledger.gpu_seconds(GpuState::Restart) == Approx(16 * (160 + write)));
  CHECK(ledger.gpu_seconds(GpuState::WaitingForPerson) == 0);
  CHECK(ledger.gpu_seconds(GpuState::Down) == Approx(8 * 100));
  const JobFaultStats& f = stats_of(r, 0);
  CHECK(f.checkpoints == 9);
  CHECK(f.lost_s == Approx(500 - 2 * write));
  check_ledger_total(r);
}

TEST_CASE("checkpoint write time is size over the storage bandwidth, and doubles when two writers share it")
{
  // Storage at 10 GB/s is the bottleneck of a one-node writer (its NIC gives 25 GB/s).
  //   j0 (8 GPUs, one node) writes 140 GB alone at t = 1000.
  //   j1 and j2 (8 GPUs each, one node each) write 140 GB each at the same time (41000): they
  //   share the storage service, half the rate each.
  Scenario s = with_checkpoints(hand_built_scenario(storage_cluster(2, 10), "fifo"), CheckpointMode::Sync);
  const Workload w = hand_built_workload({make_job(0, 0, 8, 1500, JobType::Pretrain),
                                          make_job(1, 40000, 8, 1500, JobType::Pretrain),
                                          make_job(2, 40000, 8, 1500, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);
  const double alone = 140e9 / (10e9 * LV08_EFFICIENCY);
  CHECK(stats_of(r, 0).checkpoint_s == Approx(alone));
  CHECK(stats_of(r, 1).checkpoint_s == Approx(2 * alone));
  CHECK(stats_of(r, 2).checkpoint_s == Approx(2 * alone));
  check_ledger_total(r);
}

TEST_CASE("with fast storage, a job on two nodes writes its checkpoint in half the time of a one-node job")
{
  // NICs are the bottleneck (storage 588 GB/s): one node writes 140 GB through one NIC, two
  // nodes write 70 GB each through two NICs.
  Scenario s = with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Sync);
  const Workload w = hand_built_workload(
      {make_job(0, 0, 8, 1500, JobType::Pretrain), make_job(1, 10000, 16, 1500, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);
  const double one_nic = 140e9 / (NIC_BPS * LV08_EFFICIENCY);
  CHECK(stats_of(r, 0).checkpoint_s == Approx(one_nic));
  CHECK(stats_of(r, 1).checkpoint_s == Approx(one_nic / 2));
  check_ledger_total(r);
}

TEST_CASE("asynchronous checkpoints block only for the snapshot and commit when the upload ends")
{
  // Snapshot: 70 GB per node at 25 GB/s = 2.8 s. The upload (w) overlaps training. A crash at
  // 2500 loses the work since the snapshot at progress 2000.
  Scenario s = with_spare(with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Async),
                             "auto", {failure(2500, Component::Node, 1, FailureCategory::NodeFailure, 100)});
  const Workload w = hand_built_workload({make_job(0, 0, 16, 10000, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);
  const double snapshot = 70e9 / 25e9;
  const JobFaultStats& f = stats_of(r, 0);
  CHECK(f.lost_s == Approx(500 - 2 * snapshot));
  CHECK(f.checkpoints == 9);
  CHECK(r.run->ledger().gpu_seconds(GpuState::Checkpoint) == Approx(16 * 9 * snapshot));
  check_ledger_total(r);
}

TEST_CASE("auto+spares swaps a hot spare into the interrupted job, which restarts in place")
{
  // tiny-n2 is the pod's spare. tiny-n1 crashes at 2500 for 1000 s; after detection and
  // diagnosis (2680) j0 takes tiny-n2 and restarts without queueing; tiny-n1, repaired at 3500,
  // becomes the new spare.
  Scenario s = with_spare(hand_built_scenario(tiny_cluster(3, 3), "fifo"), "auto+spares",
                             {failure(2500, Component::Node, 1, FailureCategory::NodeFailure, 1000)});
  const Workload w = hand_built_workload({make_job(0, 0, 16, 10000, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);
  const JobRecord& j0 = r.run->jobs().record(0);
  const Allocation& j0_nodes = r.run->allocation(0);
  REQUIRE(j0_nodes.parts.size() == 2);
  CHECK(j0_nodes.parts[0].node == 0);
  CHECK(j0_nodes.parts[1].node == 2);
  CHECK(j0.end_s == Approx(2680 + 60 + 10000));
  CHECK(r.run->statistics().failure_counts().spare_swaps == 1);
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Spare) == Approx(8 * 2680 + 8 * (j0.end_s - 3500)));
  CHECK(ledger.gpu_seconds(GpuState::Down) == Approx(8 * 1000));
  check_ledger_total(r);

  // jobs.csv lists every node j0 held: the one it lost as well as the spare that replaced it.
  REQUIRE(r.run->earlier_nodes(0));
  CHECK(*r.run->earlier_nodes(0) == std::vector<NodeId>{1});
  std::ostringstream csv;
  write_jobs_csv(csv, r, false);
  std::string header, row;
  std::istringstream lines(csv.str());
  std::getline(lines, header);
  std::getline(lines, row);
  CHECK_THAT(row, Catch::StartsWith("j0,Pretrain,") && Catch::Contains(",16,3,") &&
                      Catch::Contains(",tiny-n0 tiny-n1 tiny-n2,1,"));
}

namespace {

// j0 runs on tiny-n0 from 0 to 1000 while idle tiny-n1 reports CUDA errors at 100 and 200
// (10 s repairs each), under the given recovery policy.
RunResult cuda_errors_on_idle_node(const std::string& recovery)
{
  Scenario s = with_spare(hand_built_scenario(tiny_cluster(2, 2), "fifo"), recovery,
                             {failure(100, Component::Gpu, 1, FailureCategory::CudaError, 10),
                              failure(200, Component::Gpu, 1, FailureCategory::CudaError, 10)});
  return run_simulation(s, hand_built_workload({make_job(0, 0, 8, 1000)}));
}

} // namespace

TEST_CASE("auto recovery escalates a recurring failure on one node to a part replacement")
{
  // Diagnosis cordons tiny-n1 each time; the second failure within the window is escalated to
  // a 48 h replacement, so it stays down until the run ends at 1000.
  const RunResult r = cuda_errors_on_idle_node("auto");
  CHECK(r.run->statistics().failure_counts().escalations == 1);
  CHECK(r.run->ledger().gpu_seconds(GpuState::Down) == Approx(8 * (10 + 800)));
  check_ledger_total(r);
}

TEST_CASE("manual recovery leaves a node that still answers in the pool")
{
  // The same CUDA errors under manual recovery: nobody diagnoses tiny-n1, it never goes down.
  const RunResult r = cuda_errors_on_idle_node("manual");
  CHECK(r.run->statistics().applied_failures().size() == 2);
  CHECK(r.run->ledger().gpu_seconds(GpuState::Down) == 0);
  check_ledger_total(r);
}

TEST_CASE("a storage failure interrupts a job writing its checkpoint")
{
  // The first checkpoint starts at 1000 and takes w; storage fails halfway through it: the job
  // loses the 1000 s it trained (nothing committed yet).
  const double write = 70e9 / (NIC_BPS * LV08_EFFICIENCY);
  Scenario s = with_spare(with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Sync),
                             "auto",
                             {failure(1000 + write / 2, Component::Storage, 0, FailureCategory::StorageError, 50)});
  const Workload w = hand_built_workload({make_job(0, 0, 16, 5000, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);
  const JobFaultStats& f = stats_of(r, 0);
  CHECK(f.interruptions == 1);
  CHECK(f.lost_s == Approx(1000));
  CHECK(r.run->statistics().applied_failures().size() == 1);
  check_ledger_total(r);
}

namespace {

// One pretraining job of `work_s` on both nodes of a 2-node cluster under Young's interval. A
// recorded list with one node failure at 1e7 s: 1 / (2 nodes x 1e7 s) per node and second, so
// the job's MTBF is M = 1e7 s, and the failure comes after the run has ended. Each node writes
// 70 GB through its NIC alone: w = 70 GB over the NIC's lone-flow share.
constexpr double YOUNG_MTBF_S = 1e7;
constexpr double YOUNG_WRITE_S = 70e9 / (NIC_BPS * LV08_EFFICIENCY);

RunResult young_run(double work_s)
{
  Scenario s = with_spare(with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Sync),
                          "auto", {failure(YOUNG_MTBF_S, Component::Node, 0, FailureCategory::NodeFailure, 10)});
  s.checkpoint.interval_policy = IntervalPolicy::Young;
  return run_simulation(s, hand_built_workload({make_job(0, 0, 16, work_s, JobType::Pretrain)}));
}

} // namespace

TEST_CASE("young's interval comes from the checkpoint write time and the job's failure rate")
{
  // Young gives sqrt(2 w M) (about 7,800 s): a job of 20,000 s checkpoints twice.
  const RunResult r = young_run(20000);
  const double write = YOUNG_WRITE_S;
  const double interval = std::sqrt(2 * write * YOUNG_MTBF_S);
  REQUIRE(interval > 20000 / 3.0);
  REQUIRE(interval < 20000 / 2.0);
  CHECK(stats_of(r, 0).checkpoints == 2);
  CHECK(r.makespan_s == Approx(20000 + 2 * write));
  CHECK(r.run->statistics().applied_failures().size() == 0);
  check_ledger_total(r);
}

TEST_CASE("young's interval uses the write time the network model gives, not the nominal one")
{
  // As above, but 15,200 s of work. With the write the job really sees, Young gives
  // I = sqrt(2 w M) = 7,786 s and the job checkpoints once (a second would be due at 15,572 s).
  // With the nominal write (70 GB / 25 GB/s = 2.8 s) the interval would be 7,483 s and a second
  // checkpoint would fall at 14,967 s.
  const RunResult r = young_run(15200);
  const double write = YOUNG_WRITE_S;
  const double nominal_interval = std::sqrt(2 * (70e9 / NIC_BPS) * YOUNG_MTBF_S);
  const double interval = std::sqrt(2 * write * YOUNG_MTBF_S);
  REQUIRE(2 * nominal_interval < 15200);
  REQUIRE(2 * interval > 15200);
  CHECK(stats_of(r, 0).checkpoints == 1);
  CHECK(r.makespan_s == Approx(15200 + write));
  check_ledger_total(r);
}

TEST_CASE("under the flows model a lone write gets 0.97 of its split-duplex NIC, and Young plans on what the engine "
          "measured")
{
  // One 8-GPU pretraining job on one node under the flows model: each checkpoint is 140 GB through
  // the node's storage NIC alone, whose reverse direction is a link of its own, so no cross traffic
  // shares it. The job's MTBF is 2e7 s (one failure per 2 nodes x 1e7 s). The work is chosen so that
  // the checkpoint count differs between that write and one taken at 0.97 / 1.05.
  constexpr double work_s = 30800;
  constexpr double mtbf_s = 2 * YOUNG_MTBF_S;
  Scenario s = with_spare(with_checkpoints(hand_built_scenario(storage_cluster(2), "fifo"), CheckpointMode::Sync),
                          "auto", {failure(YOUNG_MTBF_S, Component::Node, 0, FailureCategory::NodeFailure, 10)});
  s.checkpoint.interval_policy = IntervalPolicy::Young;
  s.network.model = NetworkModel::Flows;
  const RunResult r = run_simulation(s, hand_built_workload({make_job(0, 0, 8, work_s, JobType::Pretrain)}));
  const JobFaultStats& f = stats_of(r, 0);
  REQUIRE(f.checkpoints > 0);
  const double measured_write_s = f.checkpoint_s / f.checkpoints;
  CHECK(measured_write_s == Approx(140e9 / (NIC_BPS * 0.97)));
  const auto checkpoints_planned_on = [&](double write_s) {
    return static_cast<int>(std::floor(work_s / std::sqrt(2 * write_s * mtbf_s)));
  };
  REQUIRE(checkpoints_planned_on(measured_write_s) != checkpoints_planned_on(measured_write_s * 1.05));
  CHECK(f.checkpoints == checkpoints_planned_on(measured_write_s));
  check_ledger_total(r);
}
