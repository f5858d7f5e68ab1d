#pragma once
// The `power:` section of a scenario: what GPUs and nodes draw, by the state the ledger records
// them in (docs/energy.md). The GPUs' and servers' watts are the cluster's hardware's
// (GpuSpec, PodSpec::node_base_w) unless the scenario gives them (sim/config/HardwareDefaults);
// the defaults here are those of the A100-SXM4-80GB servers Acme measured (NSDI'24 §3.3, Fig. 8
// and 9; ../shared/reference/acme-facts.md §4), or assumptions where it published nothing.
#include "models/cluster/ClusterSpec.hpp"

#include <cstdint>

namespace acmesim {

// What a GPU draws: computing, moving data without computing (checkpoint writes, restarts, model
// loads), idle (holding no running work), or nothing (its node is out of service). Each ledger
// state has one (power_draw, sim/run/Ledger.hpp).
enum class PowerDraw : std::uint8_t { Idle, Busy, Io, Off };

struct PowerSpec {
  // A GPU that holds no running work: idle, stranded, a spare, or held by a job that is waiting
  // for CPUs, or failed and not yet noticed (or resubmitted).
  double gpu_idle_w = GpuSpec{}.idle_w;
  // A GPU that moves data without computing: a job's checkpoint write, its restart (health check,
  // initialisation, checkpoint load), an evaluation trial's model load. Assumption: as idle; Acme
  // published no power by activity.
  double gpu_io_w = GpuSpec{}.idle_w;
  // A GPU computing (work kept or later lost, and training slowed by the network).
  double gpu_busy_w = GpuSpec{}.busy_w;
  // What the rest of a GPU server draws (CPUs, memory, NICs, fans, power supplies). Assumption:
  // constant.
  double node_base_w = PodSpec{}.node_base_w;
  // A node out of service (failed, under repair, cordoned). Assumption: powered off.
  double node_down_w = 0;
  // Facility power over IT power (cooling, distribution). Acme publishes none: 1, the servers
  // alone (assumption; a modern datacenter is 1.1-1.6).
  double pue = 1.0;
};

} // namespace acmesim
