#pragma once
// The `power:` section of a scenario: what GPUs and nodes draw, by the state the ledger records
// them in (docs/energy.md). Defaults are A100-SXM4-80GB servers as Acme measured them (NSDI'24
// §3.3, Fig. 8 and 9; ../shared/reference/acme-facts.md §4), or assumptions where it published
// nothing.
#include <cstdint>

namespace acmesim {

// What a GPU draws: computing, moving data without computing (checkpoint writes, restarts, model
// loads), idle (holding no running work), or nothing (its node is out of service). Each ledger
// state has one (power_draw, sim/run/Ledger.hpp).
enum class PowerDraw : std::uint8_t { Idle, Busy, Io, Off };

struct PowerSpec {
  // A GPU that holds no running work: idle, stranded, a spare, or held by a job that is waiting
  // for CPUs, or failed and not yet noticed (or resubmitted). Acme: "around 30% of GPUs are in an
  // idle state and still need to consume 60 W".
  double gpu_idle_w = 60;
  // A GPU that moves data without computing: a job's checkpoint write, its restart (health check,
  // initialisation, checkpoint load), an evaluation trial's model load. Assumption: as idle; Acme
  // published no power by activity.
  double gpu_io_w = 60;
  // A GPU computing (work kept or later lost, and training slowed by the network). Assumption
  // fitted to Acme's means: 168.6 W (Seren) and 191.6 W (Kalos) over all samples, of which 30.2%
  // and 28.4% are idle near 60 W, give 216 W and 244 W for the others.
  double gpu_busy_w = 230;
  // What the rest of a GPU server draws (CPUs, memory, NICs, fans, power supplies). Acme: GPU
  // servers drew 2.93 kW on average and GPUs "account for approximately 2/3 of the total power"
  // (Fig. 9): a third of 2.93 kW. Assumption: constant.
  double node_base_w = 980;
  // A node out of service (failed, under repair, cordoned). Assumption: powered off.
  double node_down_w = 0;
  // Facility power over IT power (cooling, distribution). Acme publishes none: 1, the servers
  // alone (assumption; a modern datacenter is 1.1-1.6).
  double pue = 1.0;
};

} // namespace acmesim
