// A replayed log's recorded waits beside the run's (acmesim workload stats --recorded-vs-simulated):
// hand-computed waits, bounded slowdowns, the CDF gap and the size classes.
#include "sim/report/RecordedVsSimulated.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace acmesim;

namespace {

RunJobWait job(double recorded, double simulated, double run, int size)
{
  return RunJobWait{recorded, simulated, run, size};
}

} // namespace

TEST_CASE("recorded and simulated waits of the same jobs, side by side, by hand")
{
  RunJobWaits waits;
  waits.recorded_column = true;
  waits.jobs = {job(100, 50, 100, 1), job(0, 0, 5, 4), job(-1, 7, 10, 1), job(10, -1, 0, 2)};
  const RecordedVsSimulated r = compare_recorded_waits(waits);
  CHECK(r.rows == 4);
  CHECK(r.no_recorded == 1);   // the third job
  CHECK(r.never_started == 1); // the fourth
  REQUIRE(r.all.jobs == 2);
  CHECK(*r.all.wait_s.recorded_mean == Approx(50));
  CHECK(*r.all.wait_s.simulated_mean == Approx(25));
  CHECK(*r.all.wait_s.recorded_median == Approx(50)); // between 0 and 100
  CHECK(*r.all.wait_s.simulated_p95 == Approx(47.5));
  // Bounded slowdown: (100 + 100) / 100 = 2 recorded, 1.5 simulated; the 5 s job is bounded by
  // tau = 10 s, (0 + 5) / 10 = 0.5, raised to 1.
  CHECK(*r.all.bounded_slowdown.recorded_mean == Approx(1.5));
  CHECK(*r.all.bounded_slowdown.simulated_mean == Approx(1.25));
  // CDFs: both 1/2 at 0 s; at 50 s the simulated reaches 1, the recorded stays at 1/2.
  CHECK(r.all.cdf_gap == Approx(0.5));
  CHECK(r.all.cdf_gap_at_s == 50);
  REQUIRE(r.by_size.size() == 2);
  CHECK(r.by_size[0].min_size == 1);
  CHECK(r.by_size[0].comparison.jobs == 1);
  CHECK(r.by_size[1].min_size == 2);
  CHECK(r.by_size[1].max_size == 8);
  CHECK(*r.by_size[1].comparison.wait_s.recorded_mean == 0);

  std::ostringstream text;
  print_recorded_vs_simulated(text, "jobs.csv", r);
  CHECK(text.str().find("2 compared; 1 without a recorded wait, 1 never started in the run") != std::string::npos);
  CHECK(text.str().find("wait CDFs    differ by at most 0.500 (at 50 s)") != std::string::npos);
  const auto json = recorded_vs_simulated_json("jobs.csv", r);
  CHECK(json["compared"]["wait_s"]["simulated"]["mean"] == 25.0);
  CHECK(json["by_size"][1]["size"] == "2-8");
}

TEST_CASE("a run whose log recorded no waits says so instead of comparing")
{
  RunJobWaits waits;
  waits.jobs = {job(-1, 5, 10, 1)};
  const RecordedVsSimulated r = compare_recorded_waits(waits);
  CHECK(r.all.jobs == 0);
  std::ostringstream text;
  print_recorded_vs_simulated(text, "jobs.csv", r);
  CHECK(text.str().find("the log records no waits") != std::string::npos);
  CHECK(text.str().find("compared") == std::string::npos);
}
