#include "sim/run/JobPhase.hpp"

#include <array>

namespace acmesim {

namespace {

struct PhaseState {
  JobPhase phase;
  GpuState state;
};

// In the order of the phases (checked below), so that a phase is its own index.
constexpr std::array<PhaseState, 14> PHASE_STATES{{
    {JobPhase::Queued, GpuState::Idle},     {JobPhase::Starting, GpuState::Restart},
    {JobPhase::Loading, GpuState::Restart}, {JobPhase::Training, GpuState::Busy},
    {JobPhase::Snapshot, GpuState::Checkpoint}, {JobPhase::Writing, GpuState::Checkpoint},
    {JobPhase::AwaitingUpload, GpuState::Checkpoint}, {JobPhase::Detecting, GpuState::Detection},
    {JobPhase::WaitingForPerson, GpuState::WaitingForPerson}, {JobPhase::ModelLoad, GpuState::ModelLoad},
    {JobPhase::Preprocess, GpuState::CpuWait}, {JobPhase::Inference, GpuState::Busy},
    {JobPhase::Metric, GpuState::CpuWait}, {JobPhase::Ended, GpuState::Idle},
}};

constexpr bool in_phase_order()
{
  for (std::size_t i = 0; i < PHASE_STATES.size(); ++i)
    if (static_cast<std::size_t>(PHASE_STATES[i].phase) != i)
      return false;
  return true;
}
static_assert(in_phase_order() && PHASE_STATES.back().phase == JobPhase::Ended, "one entry per phase, in order");

} // namespace

GpuState ledger_state(JobPhase phase) { return PHASE_STATES.at(static_cast<std::size_t>(phase)).state; }

} // namespace acmesim
