#pragma once
// Keeps the run's Ledger from the state changes it observes: GPUs taken, given back or moved
// between phases change the counts per state; nodes leaving and entering service or the spare
// pool move their free GPUs; work found lost after a failure is re-attributed.
#include "sim/run/RunEvents.hpp"
#include "sim/run/Ledger.hpp"

namespace acmesim {

class LedgerRecorder final : public RunObserver {
public:
  // `bin_s` > 0: also keep the series behind utilisation.csv, in bins of that width.
  LedgerRecorder(int total_gpus, double bin_s, std::size_t max_bins = 0); // Ledger::enable_series
  const Ledger& ledger() const { return ledger_; }

  using RunObserver::on;
  void on(const ClockAdvanced& c) override { ledger_.advance_to(c.now); }
  void on(const GpusTaken& c) override { move(c.before, c.after); }
  void on(const GpusReturned& c) override { move(c.before, c.after); }
  void on(const PhaseChanged& c) override { move(c.before, c.after); }
  void on(const NodeHealthChanged& c) override;
  void on(const WorkLost& c) override;
  void on(const TrainedAtSpeed& c) override;

private:
  void move(const Holding& before, const Holding& after);

  Ledger ledger_;
};

} // namespace acmesim
