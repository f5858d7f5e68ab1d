#pragma once
// Evaluation of model checkpoints (Acme NSDI'24 §4.2, §6.2): a campaign evaluates one checkpoint
// on a set of datasets; each dataset is one trial with phases (model load, preprocessing, GPU
// inference, metric computation). Defaults and sources: docs/evaluation.md.
#include <string>
#include <utility>
#include <vector>

namespace acmesim {

struct DatasetEntry {
  std::string name;
  // GPU inference seconds of the whole dataset on one trial, by model size: (billions of
  // parameters, seconds), sizes strictly increasing. Other sizes: log-log interpolation,
  // proportional extrapolation beyond the ends.
  std::vector<std::pair<double, double>> inference_s;
  double preprocess_s = 0; // tokenisation on CPU before inference (0 when cached)
  double metric_s = 0;     // metric computation on CPU after inference (code execution, judges)
  bool cached = false;     // tokenised inputs cached: preprocessing is skipped
};

struct DatasetCatalogue {
  std::vector<DatasetEntry> datasets;
  std::string source; // "<embedded default>" or the file path

  double inference_s(const DatasetEntry& dataset, double params_b) const;
  const DatasetEntry* find(const std::string& name) const;
};

struct EvalSpec {
  bool enabled = false;
  DatasetCatalogue catalogue;
  std::vector<std::string> datasets; // empty: every dataset of the catalogue
  double model_params_b = 7;
  int gpus_per_trial = 1;
  double weight_bytes_per_param = 2;  // bf16 weights: what a trial loads
  double pcie_GBps = 25;              // host memory -> GPU, for a model already on the node
  // Datasets longer than this (inference seconds) are cut into equal chunks no longer than it;
  // a scheduler may then run the chunks of one dataset on several GPUs. 0: never cut.
  double chunk_s = 0;
  // Campaigns submitted at these times (seconds), each evaluating every chosen dataset.
  std::vector<double> campaigns_s;
  // In whole-cluster runs: every this many completed checkpoints of a pretraining job of at
  // least trigger_min_gpus GPUs, a campaign evaluates that checkpoint (0: never). The
  // campaign's model is the job's (checkpoint.model_sizes), on gpus_for_model() GPUs per trial.
  int every_checkpoints = 0;
  int trigger_min_gpus = 64;
};

// GPUs per trial for a model of `params_b` billion parameters: its bf16 weights plus room for
// the KV cache, on 80 GB GPUs: 1 up to 13B, 2 up to 34B, 4 up to 70B, 8 beyond (assumption,
// ../shared/reference/models.md §3.4).
inline int gpus_for_model(double params_b)
{
  return params_b <= 13 ? 1 : params_b <= 34 ? 2 : params_b <= 70 ? 4 : 8;
}

} // namespace acmesim
