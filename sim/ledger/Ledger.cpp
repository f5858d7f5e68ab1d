#include "sim/ledger/Ledger.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace acmesim {

std::string_view to_string(GpuState state)
{
  switch (state) {
    case GpuState::Idle:
      return "idle";
    case GpuState::Busy:
      return "busy";
    case GpuState::Stranded:
      return "stranded";
    case GpuState::LostWork:
      return "lost_work";
    case GpuState::Checkpoint:
      return "checkpoint";
    case GpuState::Detection:
      return "detection";
    case GpuState::WaitingForPerson:
      return "waiting_for_person";
    case GpuState::Restart:
      return "restart";
    case GpuState::Down:
      return "down";
    case GpuState::Spare:
      return "spare";
    case GpuState::ModelLoad:
      return "model_load";
    case GpuState::CpuWait:
      return "cpu_wait";
  }
  return "?";
}

Ledger::Ledger(int total_gpus, double start_s) : total_gpus_(total_gpus), now_s_(start_s)
{
  counts_[index(GpuState::Idle)] = total_gpus;
}

void Ledger::advance_to(double now_s)
{
  if (now_s < now_s_)
    throw std::logic_error("ledger asked to go back in time from " + std::to_string(now_s_) + " to " +
                           std::to_string(now_s));
  const double dt = now_s - now_s_;
  if (dt > 0)
    for (std::size_t i = 0; i < counts_.size(); ++i)
      seconds_[i] += counts_[i] * dt;
  now_s_ = now_s;
}

void Ledger::move(GpuState from, GpuState to, int gpus)
{
  if (gpus < 0 || counts_[index(from)] < gpus)
    throw std::logic_error("ledger: cannot move " + std::to_string(gpus) + " GPUs out of state " +
                           std::string(to_string(from)) + " holding " + std::to_string(counts_[index(from)]));
  counts_[index(from)] -= gpus;
  counts_[index(to)] += gpus;
}

void Ledger::reclassify(GpuState from, GpuState to, double gpu_seconds)
{
  // A relative tolerance absorbs rounding of the sums that produced the amount.
  const double have = seconds_[index(from)];
  if (!(gpu_seconds >= 0) || gpu_seconds > have * (1 + 1e-9) + 1e-6) // NaN refused too
    throw std::logic_error("ledger: cannot re-attribute " + std::to_string(gpu_seconds) + " GPU-seconds out of " +
                           std::string(to_string(from)) + " holding " + std::to_string(have));
  const double amount = std::min(gpu_seconds, have);
  seconds_[index(from)] -= amount;
  seconds_[index(to)] += amount;
}

double Ledger::total_gpu_seconds() const
{
  double total = 0;
  for (double s : seconds_)
    total += s;
  return total;
}

} // namespace acmesim
