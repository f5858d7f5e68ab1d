#pragma once
// The values a real system could have, by quantity, declared once for every key that takes one.
// A value outside is a typo (a unit off by 10^9) or hostile input, refused with exit 2 before
// anything runs: a bandwidth of 1e-320 GB/s would otherwise reach SimGrid and abort it, a bin of
// 1e-308 s would allocate until memory runs out. The floors are far below any datacenter's
// values and the ceilings far above, so that no real scenario meets them.
#include "sim/keys/CheckedReader.hpp"

namespace acmesim::physical {

// A link, NIC, bus or storage service: 1 MB/s (or Mb/s) to 100 TB/s (or Tb/s).
inline constexpr NumberRange BANDWIDTH{1e-3, false, 1e5};
// The same, where 0 means "none" (a storage NIC shared with compute traffic).
inline constexpr NumberRange BANDWIDTH_OR_NONE{0, false, 1e5, false, 1e-3};
// A link or storage latency, microseconds: up to 10 s.
inline constexpr NumberRange LATENCY_US{0, false, 1e7};
// A switch's downlinks over its uplinks.
inline constexpr NumberRange OVERSUBSCRIPTION{1e-2, false, 1e3};
// A duration, interval or delay, seconds: 1 ms to about 31.7 years (the trace readers' bound).
inline constexpr NumberRange SECONDS{1e-3, false, 1e9};
// The same, where 0 means "none" or "never" (no chunking, no initialisation time).
inline constexpr NumberRange SECONDS_OR_NONE{0, false, 1e9, false, 1e-3};
// A platform's start overhead, seconds: 1 ms to a day.
inline constexpr NumberRange START_OVERHEAD_S{1e-3, false, 86400};
// A time between failures or a repair, hours: 3.6 s to about 114,000 years.
inline constexpr NumberRange HOURS{1e-3, false, 1e9};
// A workload's length, days: 86.4 s to ten years.
inline constexpr NumberRange DAYS{1e-3, false, 3650};
// A width of utilisation.csv's bins, seconds: 1 ms to about 31.7 years (and at most
// MAX_UTILISATION_BINS bins over the workload's span, checked once the workload is known).
inline constexpr NumberRange BIN_S{1e-3, false, 1e9};
// utilisation.csv rows: about 300 MB of file and 220 MB of memory.
inline constexpr double MAX_UTILISATION_BINS = 2e6;
// A probability in a CDF table.
inline constexpr NumberRange PROBABILITY{0, false, 1};
// A factor on a rate: a thousand times rarer to a million times more frequent.
inline constexpr NumberRange RATE_MULTIPLIER{1e-3, false, 1e6};
// A model's size, billions of parameters: a thousand parameters to 100 trillion.
inline constexpr NumberRange PARAMS_BILLION{1e-6, false, 1e5};
// Bytes stored per parameter (weights, gradients, optimiser state): 1 bit to 1 kB.
inline constexpr NumberRange BYTES_PER_PARAM{0.125, false, 1e3};
// Bytes per value on the wire (gradients, activations): 1 bit to 64 bytes.
inline constexpr NumberRange BYTES_PER_VALUE{0.125, false, 64};
// A GPU's peak, TFLOP/s: 1 GFLOP/s to an exaflop.
inline constexpr NumberRange TFLOPS{1e-3, false, 1e6};
// A GPU's peak in a precision it may lack, TFLOP/s: 0 (none) or as TFLOPS.
inline constexpr NumberRange TFLOPS_OR_NONE{0, false, 1e6, false, 1e-3};
// What one GPU draws, W: none to a kilowatt and a half (no GPU draws more).
inline constexpr NumberRange GPU_WATTS{0, false, 1500};
// What one server draws besides its GPUs, W: none to 100 kW.
inline constexpr NumberRange NODE_WATTS{0, false, 1e5};
// A utilisation such as MFU: 0.01% to 100%.
inline constexpr NumberRange UTILISATION{1e-4, false, 1};
// Tokens in one training step.
inline constexpr NumberRange TOKENS{1, false, 1e12};
// One buffer a collective reduces in a call, in MiB: about a byte to a terabyte.
inline constexpr NumberRange BUFFER_MIB{1e-6, false, 1e6};
// A ratio of two sizes of a model (hidden units per layer).
inline constexpr NumberRange SIZE_RATIO{1e-3, false, 1e4};

} // namespace acmesim::physical
