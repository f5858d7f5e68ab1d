#include "sim/run/LedgerRecorder.hpp"

#include <algorithm>

namespace acmesim {

namespace {

// GPUs of a holding by ledger state: while busy, those beyond what the job asked for (the rest of
// its whole nodes) are stranded; otherwise all are in the holding's state.
struct Split {
  GpuState state;
  int gpus;
  int stranded;
};

Split split(const Holding& h)
{
  if (h.state != GpuState::Busy)
    return {h.state, h.held, 0};
  const int busy = std::min(h.asked, h.held);
  return {GpuState::Busy, busy, h.held - busy};
}

GpuState state_of(NodeHealth health)
{
  switch (health) {
    case NodeHealth::Down:
      return GpuState::Down;
    case NodeHealth::Spare:
      return GpuState::Spare;
    case NodeHealth::InService:
      break;
  }
  return GpuState::Idle;
}

} // namespace

LedgerRecorder::LedgerRecorder(int total_gpus, double bin_s, std::size_t max_bins) : ledger_(total_gpus)
{
  if (bin_s > 0)
    ledger_.enable_series(bin_s, max_bins);
}

// The same GPUs in a new phase move straight to its state. When the counts change too, the move
// goes through Idle: the GPUs of the old holding are given back, those of the new one taken.
// Within one instant the order of moves does not matter to the integrals.
void LedgerRecorder::move(const Holding& before, const Holding& after)
{
  if (before == after)
    return;
  const Split from = split(before);
  const Split to = split(after);
  if (from.gpus == to.gpus && from.stranded == to.stranded) {
    ledger_.move(from.state, to.state, from.gpus);
    return;
  }
  ledger_.move(from.state, GpuState::Idle, from.gpus);
  ledger_.move(GpuState::Stranded, GpuState::Idle, from.stranded);
  ledger_.move(GpuState::Idle, to.state, to.gpus);
  ledger_.move(GpuState::Idle, GpuState::Stranded, to.stranded);
}

void LedgerRecorder::on(const NodeHealthChanged& c)
{
  ledger_.move(state_of(c.from), state_of(c.to), c.unheld_gpus);
}

void LedgerRecorder::on(const WorkLost& c)
{
  const GpuState lost = c.cause == LossCause::Preemption ? GpuState::Preempted : GpuState::LostWork;
  ledger_.reclassify(GpuState::Busy, lost, c.lost_s * c.gpus, c.since, c.until);
}

// Of the GPU time of a stretch trained slower than on the reference fabric, the share beyond the
// reference time is communication; faster stretches just end sooner.
void LedgerRecorder::on(const TrainedAtSpeed& c)
{
  if (c.slowdown > 1)
    ledger_.reclassify(GpuState::Busy, GpuState::Communication, c.gpus * (c.now - c.since) * (1 - 1 / c.slowdown),
                       c.since, c.now);
}

} // namespace acmesim
