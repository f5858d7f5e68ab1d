#pragma once
// The one place where GPU time is accounted (design.md, principle 5).
//
// Every GPU of the cluster is in exactly one state at every instant; the ledger integrates the
// number of GPUs per state over simulated time, so its total is GPUs x elapsed time by
// construction, and every GPU-hour figure of a run is read from here.
#include <array>
#include <cstdint>
#include <string_view>

namespace acmesim {

// Each state is a cause: "lost GPU-hours" are the hours of every state from lost_work to down.
enum class GpuState : std::uint8_t {
  Idle,       // in service, not allocated
  Busy,       // allocated to a running job that asked for it, doing work that is kept
  Stranded,   // allocated with a whole node to a job that asked for fewer GPUs than the node has
  LostWork,   // work later lost to a failure (recomputed after the restart)
  Checkpoint, // training blocked by a checkpoint (whole write, or snapshot when asynchronous)
  Detection,  // held by a job whose failure has not been noticed (and diagnosed) yet
  WaitingForPerson, // held by a failed job until a person resubmits it (manual recovery)
  Restart,    // held by a restarting job: health check, initialisation, checkpoint load
  Down,       // on a node out of service: failed, under repair or cordoned
  Spare,      // on a hot spare node held out of scheduling
  ModelLoad,  // held by an evaluation trial while its model loads
  CpuWait,    // held by an evaluation trial while the CPU preprocesses or computes metrics
};
inline constexpr std::array<GpuState, 12> ALL_GPU_STATES{
    GpuState::Idle,      GpuState::Busy,    GpuState::Stranded, GpuState::LostWork,         GpuState::Checkpoint,
    GpuState::Detection, GpuState::WaitingForPerson, GpuState::Restart, GpuState::Down, GpuState::Spare,
    GpuState::ModelLoad, GpuState::CpuWait};
std::string_view to_string(GpuState state);

class Ledger {
public:
  explicit Ledger(int total_gpus, double start_s = 0);

  // Accounts the time since the last call at the current counts. Time never goes back.
  void advance_to(double now_s);
  // Moves `gpus` GPUs from one state to another at the current time (call advance_to first).
  void move(GpuState from, GpuState to, int gpus);
  // Re-attributes GPU-seconds already accounted (work found lost after the fact); the total
  // stays the same.
  void reclassify(GpuState from, GpuState to, double gpu_seconds);

  int gpus_in(GpuState state) const { return counts_[index(state)]; }
  double gpu_seconds(GpuState state) const { return seconds_[index(state)]; }
  double total_gpu_seconds() const;
  double now() const { return now_s_; }
  int total_gpus() const { return total_gpus_; }

private:
  static std::size_t index(GpuState s) { return static_cast<std::size_t>(s); }

  int total_gpus_;
  double now_s_;
  std::array<int, ALL_GPU_STATES.size()> counts_{};
  std::array<double, ALL_GPU_STATES.size()> seconds_{};
};

} // namespace acmesim
