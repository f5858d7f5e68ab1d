#pragma once
// The one place where GPU time is accounted (docs/design.md, principle 5).
//
// Every GPU of the cluster is in exactly one state at every instant; the ledger integrates the
// number of GPUs per state over simulated time, so its total is GPUs x elapsed time by
// construction, and every GPU-hour figure of a run is read from here. Optionally it also keeps
// the same accounting in fixed-width bins of time (utilisation.csv, docs/outputs.md).
#include "models/common/EnumNames.hpp"
#include "models/power/PowerSpec.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// Each state is a cause: "lost GPU-hours" are the hours of every state from lost_work to down.
enum class GpuState : std::uint8_t {
  Idle,       // in service, not allocated
  Busy,       // allocated to a running job that asked for it, doing work that is kept
  Stranded,   // allocated with a whole node to a job that asked for fewer GPUs than the node has
  LostWork,   // work later lost to a failure (recomputed after the restart)
  Preempted,  // work later lost to a preemption by the scheduler (recomputed after the restart)
  Checkpoint, // training blocked by a checkpoint (whole write, or snapshot when asynchronous)
  Detection,  // held by a job whose failure has not been noticed (and diagnosed) yet
  WaitingForPerson, // held by a failed job until a person resubmits it (manual recovery)
  Restart,    // held by a restarting job: health check, initialisation, checkpoint load
  Down,       // on a node out of service: failed, under repair or cordoned
  Spare,      // on a hot spare node held out of scheduling
  ModelLoad,  // held by an evaluation trial while its model loads
  CpuWait,    // held by an evaluation trial while the CPU preprocesses or computes metrics
  Communication, // training beyond its reference time because the network is slower (docs/network.md)
};
// Names in summary.json (gpu_hours, lost_gpu_hours) and utilisation.csv columns.
constexpr auto enum_names(GpuState)
{
  return names_in_order<GpuState>("idle", "busy", "stranded", "lost_work", "preempted", "checkpoint", "detection",
                                  "waiting_for_person", "restart", "down", "spare", "model_load", "cpu_wait",
                                  "communication");
}
inline constexpr std::size_t GPU_STATE_COUNT = enum_values<GpuState>().size();
// How people read each state (terminal summary, plots), in the order of the values.
inline constexpr std::array<std::string_view, GPU_STATE_COUNT> GPU_STATE_LABELS{
    "idle",       "useful work", "stranded",  "lost work",  "preempted work",   "checkpoint",      "failure detection",
    "waiting for a person", "restart", "node down", "spare", "model load", "waiting for CPUs", "network slowdown"};
constexpr std::string_view state_label(GpuState state) { return GPU_STATE_LABELS[static_cast<std::size_t>(state)]; }
// The states whose hours are "lost GPU-hours", each a cause: GPUs held by jobs without making
// progress that is kept: work redone after failures and after preemptions, checkpoints,
// detection, waiting for a person, restarts, communication the network made slower.
inline constexpr std::array<GpuState, 7> LOST_GPU_STATES{
    GpuState::LostWork, GpuState::Preempted,        GpuState::Checkpoint, GpuState::Detection,
    GpuState::WaitingForPerson, GpuState::Restart, GpuState::Communication};
// The states whose hours are "unavailable GPU-hours": capacity no job could use, not work lost:
// nodes down, spares held back, GPUs of whole nodes a job holds beyond what it asked for.
inline constexpr std::array<GpuState, 3> UNAVAILABLE_GPU_STATES{GpuState::Down, GpuState::Spare,
                                                                GpuState::Stranded};
// What a GPU in each state draws (models/power/PowerSpec.hpp): busy computing (work kept or later
// lost, training slowed by the network), moving data without computing (checkpoint writes,
// restarts, model loads), idle (holding no running work), or off (its node is out of service).
constexpr PowerDraw power_draw(GpuState state)
{
  switch (state) {
    case GpuState::Busy:
    case GpuState::LostWork:
    case GpuState::Preempted:
    case GpuState::Communication:
      return PowerDraw::Busy;
    case GpuState::Down:
      return PowerDraw::Off;
    case GpuState::Checkpoint:
    case GpuState::Restart:
    case GpuState::ModelLoad:
      return PowerDraw::Io;
    case GpuState::Idle:
    case GpuState::Stranded:
    case GpuState::Detection:
    case GpuState::WaitingForPerson:
    case GpuState::Spare:
    case GpuState::CpuWait:
      return PowerDraw::Idle;
  }
  return PowerDraw::Idle;
}
// Whether a run reports the state: communication only with the network model on, so that a run
// with it off writes what a run without it wrote.
constexpr bool state_reported(GpuState state, bool network_on) { return network_on || state != GpuState::Communication; }

// GPU-seconds per state (indexed by GpuState).
using StateSeconds = std::array<double, GPU_STATE_COUNT>;

// Time reached a bin past the series' most (Ledger::enable_series): the bins are too narrow for
// how long the run lasts, which queueing can make far longer than the workload's own span.
struct SeriesLimitReached : std::runtime_error {
  SeriesLimitReached(double width_s, std::size_t most_bins, double reached_s)
      : std::runtime_error("the utilisation series reached its " + std::to_string(most_bins) + " bins"),
        bin_s(width_s), max_bins(most_bins), at_s(reached_s)
  {
  }
  double bin_s;
  std::size_t max_bins;
  double at_s; // the time the run had reached
};

class Ledger {
public:
  explicit Ledger(int total_gpus, double start_s = 0);

  // Also keeps GPU-seconds per state in bins of `bin_s` seconds from the start (bin k covers
  // [start + k * bin_s, start + (k + 1) * bin_s), the last one ends now). Call before any time
  // is accounted. With `max_bins` > 0, reaching a bin past that many throws SeriesLimitReached
  // rather than growing the series without bound.
  void enable_series(double bin_s, std::size_t max_bins = 0);

  // Accounts the time since the last call at the current counts. Time never goes back.
  void advance_to(double now_s);
  // Moves `gpus` GPUs from one state to another at the current time (call advance_to first).
  void move(GpuState from, GpuState to, int gpus);
  // Re-attributes GPU-seconds already accounted (work found lost after the fact); the total
  // stays the same. In the series, the amount is taken evenly over the time window
  // [since_s, until_s] in which it was accounted, as far as each bin holds it, the rest from
  // the latest bins back; without a window, from the latest bins back.
  void reclassify(GpuState from, GpuState to, double gpu_seconds);
  void reclassify(GpuState from, GpuState to, double gpu_seconds, double since_s, double until_s);

  int gpus_in(GpuState state) const { return counts_[index(state)]; }
  double gpu_seconds(GpuState state) const { return seconds_[index(state)]; }
  double total_gpu_seconds() const;
  double now() const { return now_s_; }
  double start() const { return start_s_; }
  int total_gpus() const { return total_gpus_; }

  bool has_series() const { return bin_s_ > 0; }
  double bin_width() const { return bin_s_; }
  // One entry per bin that time has reached; empty without a series or before time moves.
  const std::vector<StateSeconds>& series() const { return series_; }

private:
  static std::size_t index(GpuState s) { return static_cast<std::size_t>(s); }
  void add_to_series(double from_s, double to_s);
  void reclassify_in_series(std::size_t from, std::size_t to, double amount, double since_s, double until_s);
  std::size_t bin_of(double t) const;
  double bin_start(std::size_t k) const { return start_s_ + static_cast<double>(k) * bin_s_; }

  int total_gpus_;
  double start_s_;
  double now_s_;
  std::array<int, GPU_STATE_COUNT> counts_{};
  StateSeconds seconds_{};
  double bin_s_ = 0; // 0: no series
  std::size_t max_bins_ = 0; // 0: no limit
  double series_bin_end_ = 0; // end of the latest bin of series_
  std::vector<StateSeconds> series_;
};

} // namespace acmesim
