#pragma once
// Turns the campaigns of an EvalSpec into jobs: one Eval job per dataset (or per chunk of a
// long dataset), submitted at the campaign's time, each tied to its EvalChunk.
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

// Chunks of one dataset: ceil(inference / chunk_s) equal parts (1 if chunk_s is 0), each with
// its share of preprocessing, inference and metric time.
std::vector<EvalChunk> cut_dataset(const EvalSpec& spec, std::uint32_t campaign, std::uint32_t dataset);

} // namespace acmesim
