#include "sim/report/Statistics.hpp"

#include <boost/sort/spreadsort/float_sort.hpp>

#include <algorithm>
#include <cmath>

namespace acmesim {

double nearest_rank_quantile(std::span<const double> sorted, double p)
{
  if (sorted.empty())
    return 0;
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p * n)));
  return sorted[std::min(rank, sorted.size()) - 1];
}

void sort_sample(std::span<double> values)
{
  // A radix sort: a six-month run sorts a million waits and JCTs, and this takes a third of
  // std::sort's time.
  boost::sort::spreadsort::float_sort(values.begin(), values.end());
}

SampleStats summarise(std::vector<double> values)
{
  sort_sample(values);
  return summarise_sorted(values);
}

SampleStats summarise_sorted(std::span<const double> values)
{
  SampleStats s;
  s.count = values.size();
  if (values.empty())
    return s;
  double sum = 0;
  for (double v : values)
    sum += v;
  s.mean = sum / static_cast<double>(values.size());
  s.p50 = nearest_rank_quantile(values, 0.50);
  s.p95 = nearest_rank_quantile(values, 0.95);
  s.p99 = nearest_rank_quantile(values, 0.99);
  s.min = values.front();
  s.max = values.back();
  return s;
}

} // namespace acmesim
