#include "sim/experiment/CompareReport.hpp"
#include "sim/experiment/PairedStats.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

using namespace acmesim;

TEST_CASE("Student t critical values match the printed table")
{
  // Two-sided 95% (0.975 quantile) from any table of Student's t distribution.
  CHECK(t_critical(0.95, 1) == Approx(12.7062).epsilon(1e-5));
  CHECK(t_critical(0.95, 3) == Approx(3.18245).epsilon(1e-5));
  CHECK(t_critical(0.95, 19) == Approx(2.09302).epsilon(1e-5));
  CHECK(t_critical(0.99, 10) == Approx(3.16927).epsilon(1e-5));
  CHECK(t_critical(0.95, 1e6) == Approx(1.95996).epsilon(1e-5));
  CHECK_THROWS_AS(t_critical(1.0, 3), std::invalid_argument);
}

TEST_CASE("the paired difference and ratio of four seeds equal the hand-computed values")
{
  // Differences 1, 2, 1, 3: mean 1.75, sample variance (0.5625 + 0.0625 + 0.5625 + 1.5625) / 3
  // = 11/12, standard error sqrt(11/12) / 2, t(0.975, 3) = 3.182446.
  const std::vector<double> a{10, 12, 14, 16};
  const std::vector<double> b{11, 14, 15, 19};
  const PairedDifference p = paired_difference(a, b);
  CHECK(p.n == 4);
  CHECK(p.a_mean == Approx(13));
  CHECK(p.b_mean == Approx(14.75));
  CHECK(p.diff_mean == Approx(1.75));
  const double half = 3.182446 * std::sqrt(11.0 / 12.0) / 2;
  REQUIRE(p.diff_ci);
  CHECK(p.diff_ci->low == Approx(1.75 - half).epsilon(1e-6));
  CHECK(p.diff_ci->high == Approx(1.75 + half).epsilon(1e-6));
  CHECK(p.direction() == 1);
  CHECK(verdict(p) == "B higher");
  // Ratio r = 14.75 / 13 and Fieller's interval: the r at which the t test of the residuals
  // b_i - r a_i is at its 95% bound, found by bisection outside this code: 1.021994 and 1.221630.
  const double r = 14.75 / 13;
  REQUIRE(p.ratio);
  CHECK(*p.ratio == Approx(r));
  REQUIRE(p.ratio_ci);
  CHECK(p.ratio_ci->low == Approx(1.0219939).epsilon(1e-6));
  CHECK(p.ratio_ci->high == Approx(1.2216297).epsilon(1e-6));
}

TEST_CASE("a side compared with itself shows zero difference and no verdict")
{
  const std::vector<double> a{3, 7, 5, 9, 1};
  const PairedDifference p = paired_difference(a, a);
  CHECK(p.diff_mean == 0);
  REQUIRE(p.diff_ci);
  CHECK(p.diff_ci->low == 0);
  CHECK(p.diff_ci->high == 0);
  CHECK(*p.ratio == 1);
  CHECK(p.ratio_ci->low == 1);
  CHECK(p.ratio_ci->high == 1);
  CHECK(p.direction() == 0);
  CHECK(verdict(p).empty());
}

TEST_CASE("a lower B whose interval holds zero gets no verdict, one that excludes it does")
{
  // Differences -1, +1, -3: mean -1, sd 2, half width 4.303 * 2 / sqrt(3) = 4.97 > 1.
  const PairedDifference noisy = paired_difference({10, 10, 10}, {9, 11, 7});
  CHECK(noisy.diff_mean == Approx(-1));
  CHECK(noisy.diff_ci->low < 0);
  CHECK(noisy.diff_ci->high > 0);
  CHECK(verdict(noisy).empty());
  // A constant difference of -2 has a zero-width interval at -2.
  const PairedDifference clear = paired_difference({10, 20, 30}, {8, 18, 28});
  CHECK(clear.diff_ci->high == Approx(-2));
  CHECK(verdict(clear) == "B lower");
}

TEST_CASE("one seed gives means but no interval, and a zero A mean no ratio")
{
  const PairedDifference one = paired_difference({4}, {6});
  CHECK(one.diff_mean == 2);
  CHECK_FALSE(one.diff_ci);
  CHECK(*one.ratio == 1.5);
  CHECK_FALSE(one.ratio_ci);
  CHECK(verdict(one).empty());
  const PairedDifference zero = paired_difference({0, 0}, {1, 2});
  CHECK_FALSE(zero.ratio);
  CHECK_FALSE(zero.ratio_ci);
  CHECK(zero.diff_ci);
}

TEST_CASE("paired samples of different lengths or none are refused")
{
  CHECK_THROWS_AS(paired_difference({1, 2}, {1}), std::invalid_argument);
  CHECK_THROWS_AS(paired_difference({}, {}), std::invalid_argument);
}

TEST_CASE("metrics are paired only on the seeds where both sides have them")
{
  // Seed 0 has no Eval job on side B, so wait_s.by_type.Eval.mean pairs seed 1 alone.
  const std::vector<std::vector<RunMetric>> a{{{"makespan_s", 100}, {"wait_s.by_type.Eval.mean", 5}},
                                              {{"makespan_s", 120}, {"wait_s.by_type.Eval.mean", 7}}};
  const std::vector<std::vector<RunMetric>> b{{{"makespan_s", 90}},
                                              {{"makespan_s", 100}, {"wait_s.by_type.Eval.mean", 4}, {"extra", 1}}};
  const auto rows = compare_metrics(a, b, 0.95);
  REQUIRE(rows.size() == 2); // "extra" has no pair at all
  CHECK(rows[0].metric == "makespan_s");
  CHECK(rows[0].stats.n == 2);
  CHECK(rows[0].stats.diff_mean == Approx(-15));
  CHECK(rows[1].metric == "wait_s.by_type.Eval.mean");
  CHECK(rows[1].stats.n == 1);
  CHECK(rows[1].stats.diff_mean == Approx(-3));
}

TEST_CASE("the ratio interval holds 1 exactly when the difference interval holds 0")
{
  // Seeds where B is about A's: whichever way the difference test goes, the ratio's goes the same.
  const std::vector<double> a{100, 140, 90, 120, 110};
  for (const double shift : {-20.0, -8.0, -5.0, -3.0, 0.0, 2.0, 4.0, 6.0, 9.0, 30.0}) {
    const std::vector<double> b{100 + shift + 7, 140 + shift - 4, 90 + shift + 1, 120 + shift - 6, 110 + shift + 2};
    const PairedDifference p = paired_difference(a, b);
    INFO("shift " << shift);
    REQUIRE(p.ratio_ci);
    CHECK(p.ratio_ci->excludes_one() == p.diff_ci->excludes_zero());
    CHECK(p.ratio_ci->low <= *p.ratio);
    CHECK(p.ratio_ci->high >= *p.ratio);
  }
}

TEST_CASE("a ratio interval never goes below 0 for a metric that never does, and is none when A's mean may be 0")
{
  // p95 waits: B's mean is a tenth of A's, B's seeds far apart. Fieller's interval runs from
  // -0.2415 to 0.3482 (worked outside this code); no wait is negative, so it is cut at 0.
  const PairedDifference p = paired_difference({1000, 1200, 900, 1100}, {0, 400, 0, 10});
  REQUIRE(p.ratio_ci);
  CHECK(p.ratio_ci->low == 0);
  CHECK(p.ratio_ci->high == Approx(0.3481761).epsilon(1e-6));
  // The same values with one below 0 keep the whole interval.
  const PairedDifference signed_values = paired_difference({1000, 1200, 900, 1100}, {0, 400, -1e-3, 10});
  CHECK(signed_values.ratio_ci->low < -0.2);
  // A's mean is not clearly away from zero: the set of ratios is unbounded, and none is given.
  const PairedDifference unbounded = paired_difference({-5, 6, -4, 5}, {1, 2, 1, 2});
  REQUIRE(unbounded.ratio);
  CHECK_FALSE(unbounded.ratio_ci);
}

TEST_CASE("differences within float noise get no verdict, and both intervals are exactly the point")
{
  // NIC utilisation summed in another order: 4.2e-17 apart on every seed.
  const std::vector<double> a{0.31, 0.32, 0.33};
  const std::vector<double> b{0.31 + 4.2e-17, 0.32 + 5.5e-17, 0.33 + 5.5e-17};
  const PairedDifference p = paired_difference(a, b);
  CHECK(p.diff_mean == 0);
  CHECK(p.diff_ci->low == 0);
  CHECK(p.diff_ci->high == 0);
  REQUIRE(p.ratio_ci);
  CHECK(p.ratio_ci->low == 1);
  CHECK(p.ratio_ci->high == 1);
  CHECK(verdict(p).empty());
  // A real difference of one part in a million is kept.
  const PairedDifference small = paired_difference({1, 2, 3}, {1 + 1e-6, 2 + 1e-6, 3 + 1e-6});
  CHECK(verdict(small) == "B higher");
}
