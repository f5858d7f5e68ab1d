#include "sim/policies/EvalScheduler.hpp"

#include <algorithm>

namespace acmesim {

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
  std::vector<JobId> trials;
  for (JobId id : view.queue())
    if (!taken.count(id) && view.job(id).eval_trial() && view.eval_chunk(id).campaign == campaign)
      trials.push_back(id);
  const auto priority = [&](JobId id) {
    const EvalChunk& c = view.eval_chunk(id);
    return gpu_time(c) + (techniques_.metric_on_cpu ? c.metric_s : 0);
  };
  std::stable_sort(trials.begin(), trials.end(), [&](JobId a, JobId b) { return priority(a) > priority(b); });
  bool started = false;
  const auto& topology = mirror().topology();
  for (JobId id : trials) {
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
