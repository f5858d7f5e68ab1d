#include "sim/report/Statistics.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;

TEST_CASE("nearest-rank quantiles are values of the sample")
{
  const std::vector<double> sorted{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(nearest_rank_quantile(sorted, 0.5) == 5);
  CHECK(nearest_rank_quantile(sorted, 0.95) == 10);
  CHECK(nearest_rank_quantile(sorted, 0.11) == 2);
  CHECK(nearest_rank_quantile(sorted, 0.0) == 1);
  const SampleStats s = summarise({10, 0, 5});
  CHECK(s.count == 3);
  CHECK(s.mean == 5);
  CHECK(s.p50 == 5);
  CHECK(s.min == 0);
  CHECK(s.max == 10);
  CHECK(summarise({}).count == 0);
  CHECK_FALSE(summarise({}).mean.has_value());
}
