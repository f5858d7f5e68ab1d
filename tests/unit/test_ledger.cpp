#include "sim/ledger/Ledger.hpp"

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
  for (GpuState s : ALL_GPU_STATES) {
    const std::string_view name = to_string(s);
    CHECK_FALSE(name.empty());
    CHECK(name != "?");
    names.insert(name);
  }
  CHECK(names.size() == ALL_GPU_STATES.size());
  CHECK(ALL_GPU_STATES.size() == 12);
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
