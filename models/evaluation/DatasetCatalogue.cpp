#include "models/evaluation/EvalSpec.hpp"

#include <cmath>

namespace acmesim {

double DatasetCatalogue::inference_s(const DatasetEntry& dataset, double params_b) const
{
  const auto& table = dataset.inference_s;
  if (table.empty() || !(params_b > 0))
    return 0;
  // Outside the measured sizes the only safe guess is that time grows with the weights each
  // token has to pass through; a single measurement gives nothing better either.
  if (table.size() == 1 || params_b <= table.front().first)
    return table.front().second * params_b / table.front().first;
  if (params_b >= table.back().first)
    return table.back().second * params_b / table.back().first;
  // Between two sizes, a power law through both points: inference time follows model size
  // multiplicatively, so a straight line in log-log space keeps ratios sensible.
  for (std::size_t i = 1; i < table.size(); ++i) {
    const auto& [hi_size, hi_s] = table[i];
    if (params_b > hi_size)
      continue;
    const auto& [lo_size, lo_s] = table[i - 1];
    if (params_b == hi_size)
      return hi_s;
    const double f = std::log(params_b / lo_size) / std::log(hi_size / lo_size);
    return std::exp(std::log(lo_s) + f * std::log(hi_s / lo_s));
  }
  return table.back().second; // not reached: params_b < the last size
}

const DatasetEntry* DatasetCatalogue::find(const std::string& name) const
{
  for (const auto& d : datasets)
    if (d.name == name)
      return &d;
  return nullptr;
}

} // namespace acmesim
