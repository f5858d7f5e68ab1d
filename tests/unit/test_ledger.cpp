#include "sim/ledger/Ledger.hpp"

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
