#include "sim/run/CpuDemand.hpp"

#include <algorithm>

namespace acmesim {

namespace {

// Adds the stretch from the figures' span to `to`, during which `demand` cores were held. Changes
// at one instant make no stretch, so the peak is of a demand that lasted, whatever their order.
void advance(CpuFigures& f, std::int64_t demand, double to)
{
  const double dt = to - f.span_s;
  if (dt <= 0)
    return;
  const auto held = static_cast<double>(demand);
  f.demand_core_s += held * dt;
  f.busy_core_s += static_cast<double>(std::min(demand, f.capacity)) * dt;
  if (demand > f.capacity)
    f.over_capacity_s += dt;
  f.peak_demand = std::max(f.peak_demand, demand);
  f.span_s = to;
}

} // namespace

CpuDemandRecorder::CpuDemandRecorder(const std::vector<Job>& jobs, std::int64_t capacity) : jobs_(jobs)
{
  figures_.capacity = capacity;
}

// A GPU job holds its cores from when it holds GPUs until it holds none.
void CpuDemandRecorder::on(const GpusTaken& c)
{
  if (c.before.held == 0 && c.after.held > 0)
    change(c.now, cpus_of(c.holder));
}

void CpuDemandRecorder::on(const GpusReturned& c)
{
  if (c.before.held > 0 && c.after.held == 0)
    change(c.now, -cpus_of(c.holder));
}

void CpuDemandRecorder::change(double now, std::int64_t delta)
{
  if (delta == 0)
    return;
  advance(figures_, demand_, now);
  demand_ += delta;
}

CpuFigures CpuDemandRecorder::until(double end_s) const
{
  CpuFigures f = figures_;
  advance(f, demand_, end_s);
  return f;
}

} // namespace acmesim
