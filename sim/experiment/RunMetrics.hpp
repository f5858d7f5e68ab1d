#pragma once
// The figures of one run that experiments compare and sweep, read from its summary.json through
// the typed RunSummary and named as flat dotted keys built from the summary's own field names
// ("makespan_s", "wait_s.Pretrain.p95", "lost_gpu_hours.down").
#include "sim/report/RunSummary.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace acmesim {

struct RunMetric {
  std::string name;
  double value = 0;
};

// In a fixed order: makespan; wait and JCT (mean, p95) over all GPU jobs, then per job type in
// type order; utilisation; lost GPU-hours (total, then by cause); energy (IT and facility kWh,
// mean IT power); jobs rejected as larger than every pod; mean ETTR of pretraining and of its
// large jobs, and evaluation feedback latency, when the run has them. A job type with no GPU job
// is left out rather than reported as zero. Throws std::runtime_error naming a cause the summary
// lacks.
std::vector<RunMetric> run_metrics(const RunSummary& summary);

// Reads `dir`/summary.json; throws std::runtime_error naming the file and the field when it
// cannot.
std::vector<RunMetric> read_run_metrics(const std::filesystem::path& dir);

} // namespace acmesim
