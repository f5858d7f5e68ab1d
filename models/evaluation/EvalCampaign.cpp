#include "models/evaluation/EvalCampaign.hpp"

#include "models/checkpoint/CheckpointMath.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace acmesim {

std::vector<EvalChunk> cut_dataset(const EvalSpec& spec, std::uint32_t campaign, std::uint32_t dataset)
{
  const DatasetEntry& entry = spec.catalogue.datasets.at(dataset);
  const double inference = spec.catalogue.inference_s(entry, spec.model_params_b);
  const int n = spec.chunk_s > 0 ? std::max(1, static_cast<int>(std::ceil(inference / spec.chunk_s))) : 1;
  // Each chunk repeats none of the dataset's work: preprocessing and metrics are per sample,
  // so they split with the samples, and the chunks together cost what the whole dataset does.
  const double preprocess = entry.cached ? 0.0 : entry.preprocess_s;
  std::vector<EvalChunk> chunks(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    EvalChunk& c = chunks[static_cast<std::size_t>(k)];
    c.campaign = campaign;
    c.dataset = dataset;
    c.chunk = k;
    c.chunks = n;
    c.preprocess_s = preprocess / n;
    c.inference_s = inference / n;
    c.metric_s = entry.metric_s / n;
    // Every chunk is a separate trial, which loads the whole model.
    c.model_bytes = spec.model_params_b * 1e9 * spec.weight_bytes_per_param;
  }
  return chunks;
}

namespace {

// Catalogue indices of the datasets a campaign evaluates, in the order they are submitted.
std::vector<std::uint32_t> chosen_datasets(const EvalSpec& spec)
{
  std::vector<std::uint32_t> out;
  if (spec.datasets.empty()) {
    for (std::size_t i = 0; i < spec.catalogue.datasets.size(); ++i)
      out.push_back(static_cast<std::uint32_t>(i));
    return out;
  }
  for (const auto& name : spec.datasets) {
    const DatasetEntry* entry = spec.catalogue.find(name);
    if (!entry) // read_evaluation rejects such names; reaching here is a programming error
      throw std::invalid_argument("evaluation dataset not in the catalogue: " + name);
    out.push_back(static_cast<std::uint32_t>(entry - spec.catalogue.datasets.data()));
  }
  return out;
}

} // namespace

std::vector<std::pair<Job, EvalChunk>> campaign_trials(const EvalSpec& spec, std::uint32_t campaign, double submit_s)
{
  std::vector<std::pair<Job, EvalChunk>> out;
  for (const std::uint32_t d : chosen_datasets(spec)) {
    const std::string base = "eval" + std::to_string(campaign) + "-" + spec.catalogue.datasets[d].name;
    for (const EvalChunk& chunk : cut_dataset(spec, campaign, d)) {
      Job job;
      job.name = chunk.chunks > 1 ? base + "-" + std::to_string(chunk.chunk) : base;
      job.user = "eval";
      job.type = JobType::Eval;
      job.gpus = spec.gpus_per_trial;
      job.trace_nodes = 1;
      job.cpus = 0;
      job.submit_s = submit_s;
      job.duration_s = chunk.preprocess_s + chunk.inference_s + chunk.metric_s;
      job.final_state = JobState::Completed;
      out.emplace_back(std::move(job), chunk);
    }
  }
  return out;
}

void append_eval_campaigns(const EvalSpec& spec, Workload& workload)
{
  for (std::size_t c = 0; c < spec.campaigns_s.size(); ++c) {
    workload.eval_campaigns_s.push_back(spec.campaigns_s[c]);
    for (auto& [job, chunk] : campaign_trials(spec, static_cast<std::uint32_t>(c), spec.campaigns_s[c])) {
      job.id = static_cast<JobId>(workload.jobs.size());
      job.eval_chunk = static_cast<std::int32_t>(workload.eval_chunks.size());
      workload.eval_chunks.push_back(chunk);
      workload.jobs.push_back(std::move(job));
    }
  }
}

EvalSpec triggered_campaign_spec(const EvalSpec& base, const CheckpointSpec& checkpoint, int job_gpus,
                                 int node_gpus)
{
  EvalSpec spec = base;
  spec.model_params_b = model_params(checkpoint, job_gpus) / 1e9;
  spec.gpus_per_trial = std::min(gpus_for_model(spec.model_params_b), node_gpus);
  return spec;
}

} // namespace acmesim
