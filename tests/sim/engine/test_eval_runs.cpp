// Evaluation campaigns through the SimGrid engine on one node of two GPUs, worked out by hand.
// One TEST_CASE per process (one engine per process): no SECTIONs here.
//
// Model loads are storage flows: 2 GB through a 16 Gb/s (2 GB/s) storage NIC at SimGrid's
// LV08 efficiency (0.97 / 1.05), so L = 2e9 / (2e9 * 0.97 / 1.05) s alone, 2L when two trials
// load through the NIC at once. From host memory the model takes 2 GB / 25 GB/s = 0.08 s.
#include "models/evaluation/EvalCampaign.hpp"
#include "sim/report/SummaryParts.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <utility>
#include <vector>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

const double LOAD = 2e9 / (2e9 * 0.97 / 1.05);
const double PCIE = 2e9 / 25e9;

DatasetEntry dataset(const std::string& name, double inference, double preprocess, double metric)
{
  DatasetEntry d;
  d.name = name;
  d.inference_s = {{1, inference}};
  d.preprocess_s = preprocess;
  d.metric_s = metric;
  return d;
}

// d0: preprocess 10, inference 100, metric 50; d1: 10, 60, 0; d2: 0, 40, 30. A 1B model in
// bf16 (2 GB), one GPU per trial, one campaign at 0.
Scenario eval_scenario(const std::string& scheduler)
{
  ClusterSpec cluster = tiny_cluster(1, 1, 2);
  cluster.pods[0].storage_nics = 1;
  cluster.pods[0].storage_nic_bandwidth_Gbps = 16;
  cluster.pods[0].fabric.link_latency_us = 0;
  cluster.storage.latency_us = 0;
  Scenario s = hand_built_scenario(cluster, scheduler);
  s.evaluation.enabled = true;
  s.evaluation.catalogue.datasets = {dataset("d0", 100, 10, 50), dataset("d1", 60, 10, 0), dataset("d2", 40, 0, 30)};
  s.evaluation.model_params_b = 1;
  s.evaluation.campaigns_s = {0};
  return s;
}

Workload eval_workload(const Scenario& s)
{
  Workload w = hand_built_workload({});
  append_eval_campaigns(s.evaluation, w);
  normalise_workload(w);
  return w;
}

const TrialTimes& times(const RunResult& r, const std::string& name, const Workload& w)
{
  for (const Job& j : w.jobs)
    if (j.name == name) {
      const TrialTimes* t = r.run->statistics().trial_times(j.id);
      REQUIRE(t != nullptr);
      return *t;
    }
  FAIL("no trial " << name);
  throw;
}

// The nodes a job's report names, with the GPUs on each.
std::vector<std::pair<NodeId, int>> reported_gpus(const RunResult& r, JobId id)
{
  std::vector<std::pair<NodeId, int>> gpus;
  for (const auto& part : r.run->allocation(id).parts)
    gpus.emplace_back(part.node, part.gpus);
  return gpus;
}

// The campaign's trial GPU time in summary.json is the ledger's, phase by phase: in a run of
// one campaign and nothing else, every busy, loading or CPU-waiting GPU-second is a trial's.
void check_summary_matches_ledger(const Scenario& s, const RunResult& r)
{
  const auto evaluation = summarise_evaluation(s, *r.run);
  REQUIRE(evaluation.has_value());
  const TrialGpuHours& hours = evaluation->campaigns.at(0).trial_gpu_hours;
  const Ledger& ledger = r.run->ledger();
  CHECK(hours.inference * 3600 == Approx(ledger.gpu_seconds(GpuState::Busy)));
  CHECK(hours.model_load * 3600 == Approx(ledger.gpu_seconds(GpuState::ModelLoad)));
  CHECK(hours.cpu_wait * 3600 == Approx(ledger.gpu_seconds(GpuState::CpuWait)));
}

} // namespace

TEST_CASE("eval-baseline: three trials on two GPUs, every phase holding its GPU")
{
  // d0 and d1 start at 0 and load together (2L); d1 frees GPU1 at 2L + 70; d2 then loads alone
  // (L) and ends at 3L + 140 after its metric; d0 frees GPU0 at 2L + 160 after its metric.
  const Scenario s = eval_scenario("eval-baseline");
  const Workload w = eval_workload(s);
  const RunResult r = run_simulation(s, w);
  CHECK(r.makespan_s == Approx(2 * LOAD + 160));
  CHECK(times(r, "eval0-d0", w).load_s == Approx(2 * LOAD));
  CHECK(times(r, "eval0-d1", w).load_s == Approx(2 * LOAD));
  CHECK(times(r, "eval0-d2", w).load_s == Approx(LOAD)); // alone: half the time of two at once
  CHECK(times(r, "eval0-d2", w).gpu_release_s == Approx(3 * LOAD + 140));
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(200));
  CHECK(ledger.gpu_seconds(GpuState::CpuWait) == Approx(10 + 50 + 10 + 30));
  CHECK(ledger.gpu_seconds(GpuState::ModelLoad) == Approx(5 * LOAD));
  CHECK(ledger.total_gpu_seconds() == Approx(2 * r.makespan_s));
  check_summary_matches_ledger(s, r);
}

TEST_CASE("eval-decoupled: one load per node, metrics on CPUs, longest trial first on the next free GPU")
{
  // Lengths with the metric (it runs on CPUs): d0 160, d1 70, d2 70 (tie: d1 first, by id).
  // d0 and d1 take the two GPUs at 0; the node loads the model once (L), then each GPU copies
  // it from host memory (P = 0.08 s). d1 leaves GPU1 at L + P + 70; d2 then copies the model
  // (P), infers until L + 2P + 110 and its metric ends at L + 2P + 140. d0 infers until
  // L + P + 110 and its metric ends at L + P + 160: the makespan.
  const Scenario s = eval_scenario("eval-decoupled");
  const Workload w = eval_workload(s);
  const RunResult r = run_simulation(s, w);
  CHECK(r.makespan_s == Approx(LOAD + PCIE + 160));
  CHECK(times(r, "eval0-d0", w).load_s == Approx(LOAD + PCIE));
  CHECK(times(r, "eval0-d1", w).load_s == Approx(LOAD + PCIE)); // waited for the node's copy
  CHECK(times(r, "eval0-d1", w).gpu_release_s == Approx(LOAD + PCIE + 70));
  CHECK(times(r, "eval0-d2", w).load_s == Approx(PCIE)); // the copy was there
  CHECK(times(r, "eval0-d2", w).gpu_release_s == Approx(LOAD + 2 * PCIE + 110));
  const Ledger& ledger = r.run->ledger();
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(200));
  CHECK(ledger.gpu_seconds(GpuState::CpuWait) == Approx(20)); // preprocessing only
  CHECK(ledger.gpu_seconds(GpuState::ModelLoad) == Approx(2 * (LOAD + PCIE) + PCIE));
  CHECK(ledger.total_gpu_seconds() == Approx(2 * r.makespan_s));
  check_summary_matches_ledger(s, r);
}

TEST_CASE("eval-decoupled without packing: a dataset's chunks run one after another on its first chunk's GPU")
{
  // chunk_s 50 splits d0 (inference 100) and d1 (60) in two chunks each; without runtime packing
  // the scheduler starts each dataset's first chunk and queues the rest behind it on its GPU.
  Scenario s = eval_scenario("eval-decoupled");
  s.scheduler.params["runtime_packing"] = 0;
  s.evaluation.chunk_s = 50;
  const Workload w = eval_workload(s);
  const RunResult r = run_simulation(s, w);
  const JobTable& jobs = r.run->jobs();
  std::map<std::uint32_t, JobId> first_chunk; // by dataset
  for (JobId id = 0; id < jobs.count(); ++id)
    if (jobs.job(id).eval_trial() && jobs.chunk(id).chunk == 0)
      first_chunk[jobs.chunk(id).dataset] = id;
  int later_chunks = 0;
  for (JobId id = 0; id < jobs.count(); ++id) {
    if (!jobs.job(id).eval_trial() || jobs.chunk(id).chunk == 0)
      continue;
    ++later_chunks;
    const JobId first = first_chunk.at(jobs.chunk(id).dataset);
    CHECK(reported_gpus(r, first).size() == 1);
    CHECK(reported_gpus(r, id) == reported_gpus(r, first));
  }
  CHECK(later_chunks == 2);
}

TEST_CASE("checkpoints of a pretraining job trigger evaluation campaigns and their feedback latency is reported")
{
  // j0 (8 GPUs, Pretrain, 2500 s) checkpoints a 1B model (14 GB, on its node's 2 GB/s storage
  // NIC: write w) at 1000 and 2000 s of training; each checkpoint triggers a campaign of d2
  // (inference 40 s, metric 30 s) on one GPU of the other node: load L, 40 s, metric 30 s on
  // the GPU (eval-baseline). Feedback latency = L + 70 for both.
  ClusterSpec cluster = tiny_cluster(2, 2);
  cluster.pods[0].storage_nics = 1;
  cluster.pods[0].storage_nic_bandwidth_Gbps = 16;
  cluster.pods[0].fabric.link_latency_us = 0;
  cluster.storage.latency_us = 0;
  Scenario s = hand_built_scenario(cluster, "eval-baseline");
  s.checkpoint.enabled = true;
  s.checkpoint.model_sizes = {{8, 1}};
  s.checkpoint.interval_s = 1000;
  s.evaluation.enabled = true;
  s.evaluation.catalogue.datasets = {dataset("d2", 40, 0, 30)};
  s.evaluation.every_checkpoints = 1;
  s.evaluation.trigger_min_gpus = 8;
  const Workload w = hand_built_workload({make_job(0, 0, 8, 2500, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);

  REQUIRE(r.run->campaigns().size() == 2);
  const double write = 14e9 / (2e9 * 0.97 / 1.05);
  CHECK(r.run->campaigns()[0].submit_s == Approx(1000 + write));
  CHECK(r.run->campaigns()[1].submit_s == Approx(2000 + 2 * write));
  CHECK(r.run->jobs().count() == 3);
  const auto evaluation = summarise_evaluation(s, *r.run);
  REQUIRE(evaluation.has_value());
  const LatencyStats& feedback = evaluation->feedback_latency_s;
  CHECK(feedback.count == 2);
  CHECK(feedback.mean.value() == Approx(LOAD + 70));
  CHECK(r.makespan_s == Approx(2500 + 2 * write));
  CHECK(r.run->ledger().total_gpu_seconds() == Approx(16 * r.makespan_s));
}
