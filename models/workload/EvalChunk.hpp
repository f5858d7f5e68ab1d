#pragma once
// The work of an evaluation trial as a workload carries it (Workload::eval_chunks): the campaigns
// that make it are models/evaluation's (EvalCampaign.hpp).
#include <cstdint>

namespace acmesim {

// One piece of work of a campaign: a dataset, or a chunk of one.
struct EvalChunk {
  std::uint32_t campaign = 0;
  std::uint32_t dataset = 0; // index into the catalogue
  int chunk = 0;
  int chunks = 1;
  double preprocess_s = 0;
  double inference_s = 0;
  double metric_s = 0;
  double model_bytes = 0;
};

} // namespace acmesim
