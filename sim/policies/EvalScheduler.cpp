#include "sim/policies/EvalScheduler.hpp"

#include "sim/policies/Registries.hpp"

#include <algorithm>

namespace acmesim {

const Registration eval_baseline(
    scheduler_registry(),
    {"eval-baseline",
     "evaluation trials as plain jobs: one per dataset, each loading its model from storage and holding its GPUs "
     "through every phase; other jobs in submission order",
     {}},
    [](const PolicyParams&, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<EvalScheduler>(topology, std::move(placement), EvalScheduler::Techniques{});
    });

const Registration eval_decoupled(
    scheduler_registry(),
    {"eval-decoupled",
     "Acme's trial coordinator for evaluation trials (each technique can be switched off); other jobs in "
     "submission order",
     {{"local_model_load", "1: load the model once per node into host memory; trials read it over PCIe", 1, 0, 1,
       true},
      {"metric_on_cpu", "1: release the GPUs when inference ends; metrics run on CPUs", 1, 0, 1, true},
      {"runtime_packing", "1: pack trials by known runtimes, longest first onto the least-loaded GPU", 1, 0, 1,
       true}}},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      const EvalScheduler::Techniques techniques{params.flag("local_model_load"), params.flag("metric_on_cpu"),
                                                 params.flag("runtime_packing")};
      return std::make_unique<EvalScheduler>(topology, std::move(placement), techniques);
    });

EvalScheduler::EvalScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                             Techniques techniques)
    : QueueScheduler(topology, std::move(placement)), techniques_(techniques)
{
}

double EvalScheduler::gpu_time(const EvalChunk& chunk) const
{
  return chunk.preprocess_s + chunk.inference_s + (techniques_.metric_on_cpu ? 0 : chunk.metric_s);
}

StartDecision EvalScheduler::decision(JobId job, Allocation allocation) const
{
  StartDecision d;
  d.job = job;
  d.allocation = std::move(allocation);
  d.local_model = techniques_.local_model;
  d.metric_on_cpu = techniques_.metric_on_cpu;
  return d;
}

void EvalScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  std::set<JobId> taken; // queued jobs this pass has already put into a decision
  std::set<std::uint32_t> packed_campaigns; // each campaign is packed once per pass
  for (JobId id : view.queue()) {
    if (taken.count(id))
      continue;
    const Job& j = view.job(id);
    if (!j.eval_trial()) {
      if (!try_start(view, id))
        return; // strict order for everything else
      continue;
    }
    if (techniques_.packing) {
      const std::uint32_t campaign = view.eval_chunk(id).campaign;
      if (packed_campaigns.insert(campaign).second && !pack_campaign(view, campaign, taken))
        return; // no free slot: nothing else fits either
      continue;
    }
    if (!start_dataset(view, id, taken))
      return;
  }
}

bool EvalScheduler::start_dataset(const ClusterView& view, JobId first, std::set<JobId>& taken)
{
  const Job& j = view.job(first);
  Allocation allocation = placement().place(mirror(), j.gpus);
  if (allocation.empty())
    return false;
  const EvalChunk& chunk = view.eval_chunk(first);
  StartDecision d = decision(first, std::move(allocation));
  taken.insert(first);
  for (JobId other : view.queue()) {
    if (other == first || taken.count(other) || !view.job(other).eval_trial())
      continue;
    const EvalChunk& c = view.eval_chunk(other);
    if (c.campaign == chunk.campaign && c.dataset == chunk.dataset && view.job(other).gpus == j.gpus) {
      d.then.push_back(other);
      taken.insert(other);
    }
  }
  start_on(view, std::move(d));
  return true;
}

bool EvalScheduler::pack_campaign(const ClusterView& view, std::uint32_t campaign, std::set<JobId>& taken)
{
  // The campaign's queued trials, longest first: by GPU time, plus the metric when it runs on
  // CPUs, so that long CPU work starts early and overlaps the rest (ties by job id). Each free
  // slot (whole groups of a trial's GPUs on one node, lowest node first) takes the longest
  // trial left; the rest wait for the next free slot. This is longest-first list scheduling:
  // it plans only the GPUs free now, so GPUs freed later still serve the campaign.
  // Each trial's priority is worked out once, not at every comparison of the sort.
  std::vector<std::pair<double, JobId>> trials; // (priority, trial), in queue order
  for (JobId id : view.queue()) {
    if (taken.count(id) || !view.job(id).eval_trial())
      continue;
    if (const EvalChunk& c = view.eval_chunk(id); c.campaign == campaign)
      trials.emplace_back(gpu_time(c) + (techniques_.metric_on_cpu ? c.metric_s : 0), id);
  }
  std::stable_sort(trials.begin(), trials.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  bool started = false;
  const auto& topology = mirror().topology();
  for (const auto& [priority, id] : trials) {
    if (mirror().free_gpus_total() == 0)
      break; // every trial left would find no slot
    const int gpus = view.job(id).gpus;
    NodeId node = 0;
    while (node < topology.node_count() && mirror().free_gpus(node) < gpus)
      ++node;
    if (node == topology.node_count())
      continue; // no slot of this size now; a smaller trial may still fit
    taken.insert(id);
    start_on(view, decision(id, Allocation{{{node, gpus}}}));
    started = true;
  }
  return started;
}

} // namespace acmesim
