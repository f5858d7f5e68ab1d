#include "sim/policies/EvalScheduler.hpp"

#include "models/evaluation/TrialPacking.hpp"

#include <algorithm>
#include <map>

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
  std::set<std::uint32_t> packed_campaigns;
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
  // The campaign's queued trials, grouped by GPU count (a slot holds trials of one size).
  std::map<int, std::vector<JobId>> by_size;
  for (JobId id : view.queue())
    if (!taken.count(id) && view.job(id).eval_trial() && view.eval_chunk(id).campaign == campaign)
      by_size[view.job(id).gpus].push_back(id);
  bool started = false;
  for (auto& [gpus, trials] : by_size) {
    // Free slots: whole groups of `gpus` GPUs on one node, lowest node first.
    std::vector<Allocation> slots;
    const auto& topology = mirror().topology();
    for (NodeId node = 0; node < topology.node_count(); ++node)
      for (int k = 0; k < mirror().free_gpus(node) / gpus; ++k)
        slots.push_back(Allocation{{{node, gpus}}});
    if (slots.empty())
      continue;
    std::vector<double> durations;
    for (JobId id : trials)
      durations.push_back(gpu_time(view.eval_chunk(id)));
    auto plan = longest_first(durations, std::min(slots.size(), trials.size()));
    // With metrics on CPUs, a slot runs its trials with the longest metric first, so that the
    // CPU work overlaps the slot's remaining GPU work instead of trailing after it.
    if (techniques_.metric_on_cpu)
      for (auto& slot : plan)
        std::stable_sort(slot.begin(), slot.end(), [&](std::size_t a, std::size_t b) {
          return view.eval_chunk(trials[a]).metric_s > view.eval_chunk(trials[b]).metric_s;
        });
    for (std::size_t s = 0; s < plan.size(); ++s) {
      if (plan[s].empty())
        continue;
      StartDecision d = decision(trials[plan[s].front()], slots[s]);
      for (std::size_t k = 1; k < plan[s].size(); ++k)
        d.then.push_back(trials[plan[s][k]]);
      for (std::size_t item : plan[s])
        taken.insert(trials[item]);
      start_on(view, std::move(d));
      started = true;
    }
  }
  return started;
}

} // namespace acmesim
