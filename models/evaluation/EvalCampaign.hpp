#pragma once
// Turns the campaigns of an EvalSpec into jobs: one Eval job per dataset (or per chunk of a
// long dataset), submitted at the campaign's time, each tied to its EvalChunk.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/evaluation/EvalSpec.hpp"
#include "models/workload/Job.hpp"

namespace acmesim {

// Appends every campaign's jobs and chunks to `workload` (call normalise_workload after). Jobs:
// type Eval, user "eval", gpus = gpus_per_trial, name "eval<campaign>-<dataset>" (plus
// "-<chunk>" when cut), duration = preprocess + inference + metric of the chunk (what a trial
// holding its GPU throughout would take, given the model is loaded).
void append_eval_campaigns(const EvalSpec& spec, Workload& workload);

// The trial jobs (id and eval_chunk left for the caller) and chunks of one campaign.
std::vector<std::pair<Job, EvalChunk>> campaign_trials(const EvalSpec& spec, std::uint32_t campaign, double submit_s);

// The campaign evaluating a checkpoint of a pretraining job of `job_gpus` GPUs: the base spec with
// the job's model (checkpoint.model_sizes) on gpus_for_model() GPUs per trial, at most
// `node_gpus`, since a trial fits on one node (the model copy in host memory is per node).
EvalSpec triggered_campaign_spec(const EvalSpec& base, const CheckpointSpec& checkpoint, int job_gpus,
                                 int node_gpus);

// Seconds to copy a model of `bytes` from the node's host memory to its GPUs over PCIe.
inline double host_model_load_s(const EvalSpec& spec, double bytes) { return bytes / (spec.pcie_GBps * 1e9); }

// Chunks of one dataset: ceil(inference / chunk_s) equal parts (1 if chunk_s is 0), each with
// its share of preprocessing, inference and metric time.
std::vector<EvalChunk> cut_dataset(const EvalSpec& spec, std::uint32_t campaign, std::uint32_t dataset);

} // namespace acmesim
