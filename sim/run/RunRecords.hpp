#pragma once
// The records a run keeps, all kept from the state changes it publishes: the ledger (GPU time by
// state), the CPU cores held, the run statistics (per job and trial, failures) and, when asked
// for, the timeline.
#include "sim/run/CpuDemand.hpp"
#include "sim/run/LedgerRecorder.hpp"
#include "sim/run/RunStatistics.hpp"
#include "sim/run/RunTimeline.hpp"

#include <memory>

namespace acmesim {

class RunRecords {
public:
  // `utilisation_bin_s` > 0: the ledger keeps a series in bins of that width (utilisation.csv).
  // `jobs`: the workload's, which the per-job tables are sized for.
  // At most `utilisation_max_bins` bins (0: no limit): Ledger::enable_series.
  RunRecords(const Topology& topology, const std::vector<Job>& jobs, double utilisation_bin_s, bool timeline,
             std::size_t utilisation_max_bins = 0);
  RunRecords(const RunRecords&) = delete;
  RunRecords& operator=(const RunRecords&) = delete;

  const RunEvents& events() const { return events_; }
  const Ledger& ledger() const { return ledger_.ledger(); }
  const CpuDemandRecorder& cpus() const { return cpus_; }
  const RunStatistics& statistics() const { return statistics_; }
  const RunTimeline* timeline() const { return timeline_.get(); }

private:
  RunEvents events_;
  LedgerRecorder ledger_;
  CpuDemandRecorder cpus_;
  RunStatistics statistics_;
  std::unique_ptr<RunTimeline> timeline_;
};

} // namespace acmesim
