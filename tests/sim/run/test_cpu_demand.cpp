// The CPU cores jobs hold (sim/run/CpuDemand.hpp), from the changes a run publishes, by hand.
#include "sim/run/CpuDemand.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;

namespace {

Job job(JobId id, int gpus, int cpus)
{
  Job j;
  j.id = id;
  j.gpus = gpus;
  j.cpus = cpus;
  return j;
}

} // namespace

TEST_CASE("cpu demand: GPU jobs hold their cores while they hold GPUs, CPU-only jobs while they run")
{
  // 10 cores. Job 0 (4 GPUs, 6 cores) holds GPUs 10-30 s; job 1 (CPU-only, 8 cores) runs 20-40 s;
  // job 2 (2 GPUs, 0 cores) holds GPUs throughout and changes nothing.
  const std::vector<Job> jobs{job(0, 4, 6), job(1, 0, 8), job(2, 2, 0)};
  CpuDemandRecorder cpus(jobs, 10);
  const Holding none{GpuState::Busy, 4, 0}, four{GpuState::Busy, 4, 8};
  cpus.on(GpusTaken{5, 2, {}, Holding{GpuState::Busy, 2, 0}, Holding{GpuState::Busy, 2, 8}});
  cpus.on(GpusTaken{10, 0, {}, none, four});
  // Losing a node but keeping GPUs keeps the cores; only holding none gives them back.
  cpus.on(GpusReturned{15, 0, NodeId{1}, four, Holding{GpuState::Busy, 4, 4}});
  cpus.on(CpusChanged{20, 1, 8});
  cpus.on(GpusReturned{30, 0, std::nullopt, Holding{GpuState::Busy, 4, 4}, none});
  cpus.on(CpusChanged{40, 1, -8});
  const CpuFigures f = cpus.until(50);
  CHECK(f.capacity == 10);
  CHECK(f.span_s == 50);
  CHECK(f.demand_core_s == 6 * 20 + 8 * 20); // 6 cores 10-30 s, 8 cores 20-40 s
  CHECK(f.busy_core_s == 6 * 10 + 10 * 10 + 8 * 10);
  CHECK(f.over_capacity_s == 10); // 14 cores 20-30 s
  CHECK(f.peak_demand == 14);
  // Reading does not advance the record: a later read sees the same history.
  CHECK(cpus.until(60).demand_core_s == f.demand_core_s);
}

TEST_CASE("cpu demand: changes at one instant make no stretch, whatever their order")
{
  // A CPU-only job ends and another starts at 10 s, the start published first: never 16 held.
  const std::vector<Job> jobs{job(0, 0, 8), job(1, 0, 8)};
  CpuDemandRecorder cpus(jobs, 8);
  cpus.on(CpusChanged{0, 0, 8});
  cpus.on(CpusChanged{10, 1, 8});
  cpus.on(CpusChanged{10, 0, -8});
  cpus.on(CpusChanged{20, 1, -8});
  const CpuFigures f = cpus.until(20);
  CHECK(f.peak_demand == 8);
  CHECK(f.over_capacity_s == 0);
  CHECK(f.demand_core_s == 160);
}
