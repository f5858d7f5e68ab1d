#pragma once
// Measured collectives (a cluster's own nccl-tests output, or published points) and the collective
// model's calibration fitted to them (models/network/Collectives). A CSV file, one measurement a
// row (docs/network.md, "Fitting your own nccl-tests output"):
//   op,nodes,gpus_per_node,nics,nic_Gbps,nvlink_GBps,bytes,busbw_GBps,role,source
// `role` is `fit` (the calibration is solved from it) or `judge` (only compared with the model).
// configs/collectives/a100-hdr-published.csv is the published A100 + HDR set the defaults come from.
#include "models/network/Collectives.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct MeasuredCollective {
  std::string where; // "file:line"
  CollectiveOp op = CollectiveOp::AllReduce;
  CollectiveNodes on;
  double bytes = 0;
  double busbw_Bps = 0;
  bool fit = true;
  std::string source;

  double time_s() const { return bytes * bus_factor(op, on.ranks()) / busbw_Bps; }
};

// The rows of a measured-collectives CSV; InputError naming the file, line, column and value of
// every bad one.
std::vector<MeasuredCollective> read_measured_collectives(const std::string& file, std::string_view text);

// What a fit set, and from how many points each value.
struct FittedCollectives {
  CollectiveCalibration calibration;
  int nvlink_points = 0;   // one-node rings: NVLink's step and efficiency (one point: efficiency only)
  int network_points = 0;  // rings across nodes: the network's step and efficiency (idem)
  int p2p_points = 0;      // one-node send/receive: NVLink point to point
  int alltoall_points = 0; // all-to-alls across nodes: the NICs under an all-to-all
};

// The calibration fitted to the `fit` points: each tier's step latency and efficiency by least
// squares on the relative error of the time (exact with two points), each other efficiency the
// same way with the latencies fitted. A value no point speaks for keeps `fallback`'s. Rings across
// nodes are taken as limited by the NICs, not NVLink. InputError if the points contradict the model
// (a negative latency, an efficiency not in (0, 1.2]), naming them.
FittedCollectives fit_collectives(std::span<const MeasuredCollective> points, const CollectiveCalibration& fallback);

} // namespace acmesim
