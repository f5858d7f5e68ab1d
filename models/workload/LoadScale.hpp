#pragma once
// `workload.load_scale`: the offered load of every job type times a factor, whatever the jobs'
// source (docs/scenarios.md#scaling-the-load). Generators scale their arrival rates (the Acme
// generator's pretraining attempts included, so its campaigns grow in number); a replayed trace
// keeps its times and is thinned or replicated job by job.
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <cstdint>

namespace acmesim {

// A replayed trace at `scale` times its load: each job is kept floor(scale) times and once more
// with probability scale - floor(scale), drawn from the seed's "workload.load_scale" stream. Copies
// arrive with their original (same submission time, same size and run time) and are named
// "<name>~<k>", k = 1, 2, ...; ids are renumbered in order. Scale 1 changes nothing.
void resample_arrivals(Workload& workload, double scale, std::uint64_t seed);

// A synthetic workload by hand at `scale` times its load: every type's Poisson arrival rate
// times `scale`.
SyntheticSpec scaled_synthetic(SyntheticSpec spec, double scale);

} // namespace acmesim
