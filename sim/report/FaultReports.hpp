#pragma once
// Report pieces about failures, checkpoints and recovery (summary.json and jobs.csv).
#include "sim/config/Scenario.hpp"
#include "sim/run/Run.hpp"

#include <array>
#include <nlohmann/json.hpp>

namespace acmesim {

using Json = nlohmann::ordered_json;

// The ledger states that count as lost GPU-hours, by cause.
inline constexpr std::array<GpuState, 6> LOST_GPU_STATES{GpuState::LostWork,         GpuState::Checkpoint,
                                                         GpuState::Detection,        GpuState::WaitingForPerson,
                                                         GpuState::Restart,          GpuState::Down};

// Useful time and effective training time ratio (useful / wall time from first start to end)
// of a GPU job that ran.
struct JobTimeSplit {
  bool ran = false;
  double useful_s = 0;
  double ettr = 0;
};
JobTimeSplit time_split(const Job& job, const JobRecord& record, const JobFaultStats* stats);

Json lost_gpu_hours(const Ledger& ledger);
Json failure_counts(const Run& run);
// ETTR summary and one entry per pretraining job that ran.
Json training_jobs(const Run& run);

} // namespace acmesim
