// Preemption through the SimGrid engine: the quota scheduler reclaims reserved GPUs from a
// borrower on clusters small enough to work out by hand. One TEST_CASE per process (one engine per
// process). Storage flows as in tests/support/StorageCluster.hpp.
#include "sim/report/SummaryParts.hpp"
#include "tests/support/RecordedFailures.hpp"
#include "tests/support/SimRun.hpp"
#include "tests/support/StorageCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

// Two nodes of 8 GPUs, each with its own storage NIC. Under `quota`'s defaults pretraining
// reserves 11 of the 16 GPUs and SFT none.
Scenario quota_scenario(bool reclaim = true)
{
  Scenario s = hand_built_scenario(storage_cluster(2), "quota");
  s.scheduler.params["reclaim"] = reclaim ? 1 : 0;
  return s;
}

// The SFT job borrows the whole cluster from 0 for 5000 s; at 1500 an 8-GPU pretraining job of
// 1000 s arrives within its reservation.
Workload borrower_and_owner()
{
  return hand_built_workload({make_job(0, 0, 16, 5000, JobType::SFT), make_job(1, 1500, 8, 1000, JobType::Pretrain)});
}

} // namespace

TEST_CASE("a borrower without checkpoints is preempted by the owner's job, loses all its work and starts over")
{
  // At 1500 the SFT job is preempted (1500 s on 16 GPUs lost) and the pretraining job runs to
  // 2500; the SFT job, queued again, gets both nodes back then and trains its 5000 s anew.
  const Workload workload = borrower_and_owner(); // the run reads it until the end
  const RunResult r = run_simulation(quota_scenario(), workload);
  const JobTable& jobs = r.run->jobs();
  CHECK(jobs.record(1).start_s == 1500);
  CHECK(jobs.record(1).end_s == 2500);
  CHECK(jobs.record(0).start_s == 0); // its first start: its queueing delay is 0
  CHECK(jobs.record(0).end_s == 7500);
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Preempted) == Approx(16 * 1500));
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == 0);
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(16 * 5000 + 8 * 1000));
  CHECK(ledger.gpu_seconds(GpuState::Idle) == Approx(8 * 1000));
  const JobFaultStats* f = r.run->statistics().fault_stats(0);
  REQUIRE(f != nullptr);
  CHECK(f->preemptions == 1);
  CHECK(f->preempted_s == Approx(1500));
  CHECK(f->interruptions == 0);
  CHECK(r.run->statistics().failure_counts().job_interruptions == 0);

  // Per job type, as summary.json reports it; the GPU-hours are the ledger's.
  const PreemptionSummary p = summarise_preemptions(*r.run);
  CHECK(p.preemptions == 1);
  CHECK(p.jobs_preempted == 1);
  CHECK(p.lost_gpu_hours == Approx(ledger.gpu_seconds(GpuState::Preempted) / 3600));
  CHECK(p.by_type.at(JobType::SFT).preemptions == 1);
  CHECK(p.by_type.at(JobType::SFT).lost_gpu_hours == Approx(16 * 1500 / 3600.0));
  CHECK(p.by_type.at(JobType::Pretrain).preemptions == 0);
  check_ledger_total(r);
}

TEST_CASE("a preempted borrower with checkpoints loses only the work since its last one and restarts from it")
{
  // The SFT job checkpoints every 1000 s of training (140 GB, 70 GB per node: w s). Preempted at
  // 1500, it has trained 500 - w s since the checkpoint of progress 1000. At 2500 it restarts:
  // initialisation 100 s, load w, then 4000 s of training with checkpoints at 2000, 3000, 4000.
  Scenario s = quota_scenario();
  s.checkpoint.enabled = true;
  s.checkpoint.job_types = {JobType::SFT};
  s.checkpoint.model_sizes = {{16, 10}};
  s.checkpoint.mode = CheckpointMode::Sync;
  s.checkpoint.interval_policy = IntervalPolicy::Fixed;
  s.checkpoint.interval_s = 1000;
  s.checkpoint.init_s = 100;
  const Workload workload = borrower_and_owner();
  const RunResult r = run_simulation(s, workload);

  const double w = 70e9 / (NIC_BPS * LV08_EFFICIENCY);
  const Ledger& ledger = r.run->ledger();
  CHECK(r.run->jobs().record(0).end_s == Approx(2500 + 100 + w + 4000 + 3 * w));
  CHECK(ledger.gpu_seconds(GpuState::Preempted) == Approx(16 * (500 - w)));
  CHECK(ledger.gpu_seconds(GpuState::Checkpoint) == Approx(16 * 4 * w));
  CHECK(ledger.gpu_seconds(GpuState::Restart) == Approx(16 * (100 + w)));
  const JobFaultStats* f = r.run->statistics().fault_stats(0);
  REQUIRE(f != nullptr);
  CHECK(f->preempted_s == Approx(500 - w));
  CHECK(f->checkpoints == 4);
  check_ledger_total(r);
}

TEST_CASE("with reclaim 0 the owner waits for the borrower: nothing is preempted")
{
  const Workload workload = borrower_and_owner();
  const RunResult r = run_simulation(quota_scenario(false), workload);
  CHECK(r.run->jobs().record(0).end_s == 5000);
  CHECK(r.run->jobs().record(1).start_s == 5000);
  CHECK(r.run->ledger().gpu_seconds(GpuState::Preempted) == 0);
  check_ledger_total(r);
}

TEST_CASE("quota with failures and preemptions keeps every GPU-second in the ledger")
{
  // As in the first case, and tiny-n1 crashes at 3000 under the SFT job's second attempt, which
  // loses what it trained since its restart at 2500 to the failure, not to a preemption.
  Scenario s = with_failures(quota_scenario(), "auto",
                             {failure(3000, Component::Node, 1, FailureCategory::NodeFailure, 100)});
  const Workload workload = borrower_and_owner();
  const RunResult r = run_simulation(s, workload);
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Preempted) == Approx(16 * 1500));
  CHECK(ledger.gpu_seconds(GpuState::LostWork) > 0);
  const JobFaultStats* f = r.run->statistics().fault_stats(0);
  REQUIRE(f != nullptr);
  CHECK(f->preemptions == 1);
  CHECK(f->interruptions == 1);
  check_ledger_total(r);
}
