#include "sim/ledger/Ledger.hpp"

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

double Ledger::total_gpu_seconds() const
{
  double total = 0;
  for (double s : seconds_)
    total += s;
  return total;
}

} // namespace acmesim
