#include "models/checkpoint/CheckpointMath.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acmesim {

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();

// A CPU-only or malformed job (gpus < 1) is treated as one GPU so that the throughput model
// never divides by zero; such jobs do not checkpoint in practice.
int at_least_one(int gpus) { return std::max(gpus, 1); }

} // namespace

double model_params(const CheckpointSpec& spec, int gpus)
{
  // A spec built in code may leave the table empty: fall back to the documented defaults
  // rather than training a model of zero parameters.
  static const std::vector<ModelSizeRule> defaults = CheckpointSpec{}.model_sizes;
  const std::vector<ModelSizeRule>& rules = spec.model_sizes.empty() ? defaults : spec.model_sizes;
  if (rules.empty())
    return 0;
  const auto rule =
      std::find_if(rules.begin(), rules.end(), [gpus](const ModelSizeRule& r) { return r.max_gpus >= gpus; });
  return (rule != rules.end() ? *rule : rules.back()).params_billion * 1e9;
}

double checkpoint_bytes(const CheckpointSpec& spec, int gpus)
{
  return model_params(spec, gpus) * spec.bytes_per_param;
}

double flops_time_s(const CheckpointSpec& spec, int gpus, double mfu)
{
  // 6 FLOPs per parameter per token: forward (2) plus backward (4), the MFU convention.
  const double flops_per_step = 6 * model_params(spec, gpus) * spec.tokens_per_step;
  const double flops_per_s = at_least_one(gpus) * spec.peak_tflops_per_gpu * 1e12 * mfu;
  return flops_per_s > 0 ? flops_per_step / flops_per_s : INF;
}

double step_time_s(const CheckpointSpec& spec, int gpus)
{
  return spec.step_time_s > 0 ? spec.step_time_s : flops_time_s(spec, gpus, spec.mfu);
}

double tokens_per_second(const CheckpointSpec& spec, int gpus)
{
  const double step = step_time_s(spec, gpus);
  return step > 0 && std::isfinite(step) ? spec.tokens_per_step / step : 0;
}

double young_interval(double delta_s, double mtbf_s)
{
  if (std::isinf(mtbf_s))
    return INF;
  return std::sqrt(2 * std::max(delta_s, 0.0) * std::max(mtbf_s, 0.0));
}

double daly_interval(double delta_s, double mtbf_s)
{
  if (std::isinf(mtbf_s))
    return INF;
  const double d = std::max(delta_s, 0.0);
  const double m = std::max(mtbf_s, 0.0);
  // Daly's expansion is only valid for d < 2M; beyond it checkpointing once per MTBF is optimal.
  if (d >= 2 * m)
    return m;
  const double x = d / (2 * m);
  return std::sqrt(2 * d * m) * (1 + std::sqrt(x) / 3 + x / 9) - d;
}

double checkpoint_interval(const CheckpointSpec& spec, int gpus, double delta_s, double mtbf_s)
{
  const double step = step_time_s(spec, gpus);
  double interval = 0;
  switch (spec.interval_policy) {
  case IntervalPolicy::Fixed:
    interval = spec.interval_steps > 0 ? spec.interval_steps * step : spec.interval_s;
    break;
  case IntervalPolicy::Young:
    interval = young_interval(delta_s, mtbf_s);
    break;
  case IntervalPolicy::Daly:
    interval = daly_interval(delta_s, mtbf_s);
    break;
  }
  // A checkpoint is taken at a step boundary, so no interval can be shorter than one step
  // (Young and Daly give tiny intervals for a near-free snapshot on a failure-prone job).
  return std::max(interval, step);
}

} // namespace acmesim
