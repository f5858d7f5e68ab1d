#include "sim/run/JobPhase.hpp"

namespace acmesim {

GpuState ledger_state(JobPhase phase)
{
  switch (phase) {
    case JobPhase::Training:
    case JobPhase::Inference:
      return GpuState::Busy;
    case JobPhase::Starting:
    case JobPhase::Loading:
      return GpuState::Restart;
    case JobPhase::Snapshot:
    case JobPhase::Writing:
    case JobPhase::AwaitingUpload:
      return GpuState::Checkpoint;
    case JobPhase::Detecting:
      return GpuState::Detection;
    case JobPhase::WaitingForPerson:
      return GpuState::WaitingForPerson;
    case JobPhase::ModelLoad:
      return GpuState::ModelLoad;
    case JobPhase::Preprocess:
    case JobPhase::Metric:
      return GpuState::CpuWait;
    case JobPhase::Queued:
    case JobPhase::Ended:
      break;
  }
  return GpuState::Idle;
}

} // namespace acmesim
