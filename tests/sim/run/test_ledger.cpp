#include "sim/run/Ledger.hpp"

#include <set>
#include <stdexcept>
#include <string_view>

#include <catch2/catch.hpp>

using namespace acmesim;

TEST_CASE("Ledger integrates GPUs per state over time and totals GPUs x elapsed time")
{
  Ledger ledger(16);
  ledger.advance_to(10); // 16 idle for 10 s
  ledger.move(GpuState::Idle, GpuState::Busy, 12);
  ledger.move(GpuState::Idle, GpuState::Stranded, 4);
  ledger.advance_to(110); // 12 busy + 4 stranded for 100 s
  ledger.move(GpuState::Busy, GpuState::Idle, 12);
  ledger.move(GpuState::Stranded, GpuState::Idle, 4);
  ledger.advance_to(120);
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(1200));
  CHECK(ledger.gpu_seconds(GpuState::Stranded) == Approx(400));
  CHECK(ledger.gpu_seconds(GpuState::Idle) == Approx(160 + 160));
  CHECK(ledger.total_gpu_seconds() == Approx(16 * 120));
}

TEST_CASE("Ledger rejects impossible moves and time going back")
{
  Ledger ledger(8);
  CHECK_THROWS_AS(ledger.move(GpuState::Busy, GpuState::Idle, 1), std::logic_error);
  CHECK_THROWS_AS(ledger.move(GpuState::Idle, GpuState::Busy, 9), std::logic_error);
  ledger.advance_to(5);
  CHECK_THROWS_AS(ledger.advance_to(4), std::logic_error);
}

TEST_CASE("Ledger::reclassify moves accounted GPU-seconds between states and keeps the total")
{
  Ledger ledger(8);
  ledger.move(GpuState::Idle, GpuState::Busy, 8);
  ledger.advance_to(100); // 800 busy GPU-seconds
  ledger.reclassify(GpuState::Busy, GpuState::LostWork, 300);
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(500));
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == Approx(300));
  CHECK(ledger.total_gpu_seconds() == Approx(800));
  // Counts and time are untouched: only what was accounted moves.
  CHECK(ledger.gpus_in(GpuState::Busy) == 8);
  CHECK(ledger.gpus_in(GpuState::LostWork) == 0);
  CHECK(ledger.now() == 100);

  // Everything the source holds may move, leaving it empty.
  ledger.reclassify(GpuState::Busy, GpuState::LostWork, 500);
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(0).margin(1e-9));
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == Approx(800));
  CHECK(ledger.total_gpu_seconds() == Approx(800));

  // Accounting goes on from there.
  ledger.advance_to(110);
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(80));
  CHECK(ledger.total_gpu_seconds() == Approx(880));

  // Moving nothing is allowed and changes nothing.
  ledger.reclassify(GpuState::Idle, GpuState::Down, 0);
  CHECK(ledger.gpu_seconds(GpuState::Down) == 0);
  CHECK(ledger.total_gpu_seconds() == Approx(880));
}

TEST_CASE("Ledger::reclassify refuses more than the source holds and negative amounts")
{
  Ledger ledger(4);
  ledger.move(GpuState::Idle, GpuState::Busy, 4);
  ledger.advance_to(10); // 40 busy GPU-seconds
  CHECK_THROWS_AS(ledger.reclassify(GpuState::Busy, GpuState::LostWork, 41), std::logic_error);
  CHECK_THROWS_AS(ledger.reclassify(GpuState::Busy, GpuState::LostWork, 40.01), std::logic_error);
  CHECK_THROWS_AS(ledger.reclassify(GpuState::Busy, GpuState::LostWork, -1), std::logic_error);
  CHECK_THROWS_AS(ledger.reclassify(GpuState::LostWork, GpuState::Busy, 1), std::logic_error); // holds 0
  // A refused request leaves the ledger as it was.
  CHECK(ledger.gpu_seconds(GpuState::Busy) == Approx(40));
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == 0);
  CHECK(ledger.total_gpu_seconds() == Approx(40));
  // Rounding just past what the source holds is absorbed, without going negative.
  ledger.reclassify(GpuState::Busy, GpuState::LostWork, 40 * (1 + 1e-12));
  CHECK(ledger.gpu_seconds(GpuState::Busy) >= 0);
  CHECK(ledger.gpu_seconds(GpuState::LostWork) == Approx(40));
  CHECK(ledger.total_gpu_seconds() == Approx(40));
}

TEST_CASE("Ledger state names are distinct")
{
  std::set<std::string_view> names;
  for (GpuState s : enum_values<GpuState>()) {
    const std::string_view name = to_string(s);
    CHECK_FALSE(name.empty());
    CHECK(name != "?");
    names.insert(name);
  }
  CHECK(names.size() == GPU_STATE_COUNT);
  CHECK(GPU_STATE_COUNT == 14);
  CHECK(to_string(GpuState::Preempted) == "preempted");
  CHECK(to_string(GpuState::Communication) == "communication");
  CHECK(to_string(GpuState::WaitingForPerson) == "waiting_for_person");
  CHECK(to_string(GpuState::LostWork) == "lost_work");
  CHECK(to_string(GpuState::Down) == "down");
  CHECK(to_string(GpuState::Spare) == "spare");
}

TEST_CASE("Ledger accounts down and spare GPUs like any other state")
{
  Ledger ledger(16);
  ledger.move(GpuState::Idle, GpuState::Down, 8);
  ledger.move(GpuState::Idle, GpuState::Spare, 4);
  ledger.advance_to(10);
  CHECK(ledger.gpu_seconds(GpuState::Down) == Approx(80));
  CHECK(ledger.gpu_seconds(GpuState::Spare) == Approx(40));
  CHECK(ledger.gpu_seconds(GpuState::Idle) == Approx(40));
  CHECK(ledger.total_gpu_seconds() == Approx(160));
}

namespace {

double bin_seconds(const Ledger& ledger, std::size_t k, GpuState s)
{
  return ledger.series().at(k)[static_cast<std::size_t>(s)];
}

// Each state's column of the series sums to the ledger's total for it.
void check_series_sums(const Ledger& ledger)
{
  for (GpuState s : enum_values<GpuState>()) {
    double sum = 0;
    for (const auto& bin : ledger.series())
      sum += bin[static_cast<std::size_t>(s)];
    INFO(to_string(s));
    CHECK(sum == Approx(ledger.gpu_seconds(s)).margin(1e-9));
  }
}

} // namespace

TEST_CASE("Ledger series splits elapsed time across bins and opens bins only as time reaches them")
{
  Ledger ledger(16);
  ledger.enable_series(100);
  CHECK(ledger.series().empty());
  ledger.advance_to(50); // 16 idle
  ledger.move(GpuState::Idle, GpuState::Busy, 8);
  ledger.advance_to(250); // 8 busy + 8 idle across bins 0, 1 and half of 2
  ledger.move(GpuState::Busy, GpuState::Down, 8);
  ledger.advance_to(300); // 8 down + 8 idle: bin 2 ends exactly at 300, no bin 3 yet
  REQUIRE(ledger.series().size() == 3);
  CHECK(bin_seconds(ledger, 0, GpuState::Idle) == 16 * 50 + 8 * 50);
  CHECK(bin_seconds(ledger, 0, GpuState::Busy) == 8 * 50);
  CHECK(bin_seconds(ledger, 1, GpuState::Busy) == 8 * 100);
  CHECK(bin_seconds(ledger, 1, GpuState::Idle) == 8 * 100);
  CHECK(bin_seconds(ledger, 2, GpuState::Busy) == 8 * 50);
  CHECK(bin_seconds(ledger, 2, GpuState::Down) == 8 * 50);
  CHECK(bin_seconds(ledger, 2, GpuState::Idle) == 8 * 100);
  ledger.advance_to(310);
  REQUIRE(ledger.series().size() == 4);
  CHECK(bin_seconds(ledger, 3, GpuState::Down) == 8 * 10);
  check_series_sums(ledger);
}

TEST_CASE("Ledger series moves reclassified GPU-seconds over their time window")
{
  Ledger ledger(8);
  ledger.enable_series(100);
  ledger.move(GpuState::Idle, GpuState::Busy, 4);
  ledger.advance_to(400); // 4 busy in each of 4 bins: 400 GPU-seconds per bin
  // Work done from 150 to 350 on 4 GPUs is lost: 200 GPU-seconds in bins 1 and 3, 400 in bin 2.
  ledger.reclassify(GpuState::Busy, GpuState::LostWork, 800, 150, 350);
  CHECK(bin_seconds(ledger, 0, GpuState::LostWork) == 0);
  CHECK(bin_seconds(ledger, 1, GpuState::LostWork) == Approx(200));
  CHECK(bin_seconds(ledger, 2, GpuState::LostWork) == Approx(400));
  CHECK(bin_seconds(ledger, 3, GpuState::LostWork) == Approx(200));
  CHECK(bin_seconds(ledger, 1, GpuState::Busy) == Approx(200));
  CHECK(bin_seconds(ledger, 2, GpuState::Busy) == Approx(0).margin(1e-9));
  check_series_sums(ledger);

  // A window holding less than the amount in that state (here: nothing busy is left in bin 2)
  // leaves the rest to the latest bins, never driving a bin below zero.
  ledger.reclassify(GpuState::Busy, GpuState::LostWork, 300, 200, 300);
  CHECK(bin_seconds(ledger, 2, GpuState::Busy) >= 0);
  CHECK(bin_seconds(ledger, 3, GpuState::Busy) == Approx(0).margin(1e-9));
  CHECK(bin_seconds(ledger, 1, GpuState::Busy) == Approx(100));
  check_series_sums(ledger);

  // Without a window: from the latest bins back.
  ledger.reclassify(GpuState::Busy, GpuState::Checkpoint, 150);
  CHECK(bin_seconds(ledger, 1, GpuState::Checkpoint) == Approx(100));
  CHECK(bin_seconds(ledger, 0, GpuState::Checkpoint) == Approx(50));
  check_series_sums(ledger);
  CHECK(ledger.total_gpu_seconds() == Approx(8 * 400));
}

TEST_CASE("Ledger series stops at its most bins, saying when, instead of growing without bound")
{
  Ledger ledger(8);
  ledger.enable_series(10, 3); // bins [0, 10), [10, 20), [20, 30)
  ledger.advance_to(30);
  CHECK(ledger.series().size() == 3);
  try {
    ledger.advance_to(45);
    FAIL("a fourth bin was opened");
  } catch (const SeriesLimitReached& e) {
    CHECK(e.bin_s == 10);
    CHECK(e.max_bins == 3);
    CHECK(e.at_s == 45);
  }
  CHECK(ledger.series().size() == 3);
}

TEST_CASE("Ledger series needs a width > 0 and must start before time is accounted")
{
  Ledger ledger(8);
  CHECK_THROWS_AS(ledger.enable_series(0), std::logic_error);
  CHECK_THROWS_AS(ledger.enable_series(-1), std::logic_error);
  CHECK_FALSE(ledger.has_series());
  ledger.advance_to(1);
  CHECK_THROWS_AS(ledger.enable_series(60), std::logic_error);
  // Without a series, no bins are kept.
  ledger.advance_to(1000);
  CHECK(ledger.series().empty());
}
