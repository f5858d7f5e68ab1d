#include "sim/policies/EvalScheduler.hpp"

#include "sim/policies/Registries.hpp"

#include <limits>

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

double EvalScheduler::priority(const EvalChunk& chunk)
{
  return chunk.preprocess_s + chunk.inference_s + chunk.metric_s;
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

void EvalScheduler::on_queued(const ClusterView& view, JobId job)
{
  if (techniques_.packing)
    wait(view, job);
}

void EvalScheduler::on_started(const ClusterView& view, JobId job)
{
  if (techniques_.packing)
    stop_waiting(view, job);
}

void EvalScheduler::wait(const ClusterView& view, JobId job)
{
  Waiting& w = waiting_;
  ++w.count;
  if (!view.job(job).eval_trial()) {
    w.others.insert(job);
    return;
  }
  const EvalChunk& c = view.eval_chunk(job);
  CampaignQueue& campaign = w.campaigns[c.campaign];
  if (campaign.ids.empty() || job < *campaign.ids.begin()) { // the campaign's new first trial
    if (!campaign.ids.empty())
      w.heads.erase({*campaign.ids.begin(), c.campaign});
    w.heads.emplace(job, c.campaign);
  }
  campaign.ids.insert(job);
  campaign.by_priority.emplace(priority(c), job);
}

void EvalScheduler::stop_waiting(const ClusterView& view, JobId job)
{
  Waiting& w = waiting_;
  if (!view.job(job).eval_trial()) {
    w.count -= w.others.erase(job);
    return;
  }
  const EvalChunk& c = view.eval_chunk(job);
  const auto it = w.campaigns.find(c.campaign);
  if (it == w.campaigns.end() || it->second.ids.erase(job) == 0)
    return;
  --w.count;
  CampaignQueue& campaign = it->second;
  campaign.by_priority.erase({priority(c), job});
  if (w.heads.erase({job, c.campaign}) > 0 && !campaign.ids.empty())
    w.heads.emplace(*campaign.ids.begin(), c.campaign);
  if (campaign.ids.empty())
    w.campaigns.erase(it);
}

void EvalScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  if (techniques_.packing) {
    schedule_packing(view);
    return;
  }
  std::set<JobId> taken; // queued jobs this pass has already put into a decision
  for (JobId id : view.queue()) {
    if (taken.count(id))
      continue;
    if (!view.job(id).eval_trial()) {
      if (!try_start(view, id))
        return; // strict order for everything else
      continue;
    }
    if (!start_dataset(view, id, taken))
      return;
  }
}

void EvalScheduler::schedule_packing(const ClusterView& view)
{
  Waiting& w = waiting_;
  if (w.count != view.queue().size()) { // a job came or went unannounced: start again from the queue
    w = Waiting{};
    for (const JobId id : view.queue())
      wait(view, id);
  }
  std::set<std::uint32_t> packed; // each campaign is packed once per pass
  JobId cursor = 0;               // the pass has walked the queue up to here
  while (true) {
    const auto other = w.others.lower_bound(cursor);
    auto head = w.heads.lower_bound({cursor, 0});
    while (head != w.heads.end() && packed.contains(head->second))
      ++head; // a campaign packed already, whose first trial left is further on
    const bool other_first = other != w.others.end() && (head == w.heads.end() || *other < head->first);
    if (other_first) {
      const JobId id = *other;
      cursor = id + 1;
      if (!try_start(view, id))
        return; // strict order for everything else
      continue;
    }
    if (head == w.heads.end())
      return;
    const std::uint32_t campaign = head->second;
    cursor = head->first + 1;
    packed.insert(campaign);
    if (!pack_campaign(view, campaign))
      return; // no free slot: nothing else fits either
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

bool EvalScheduler::pack_campaign(const ClusterView& view, std::uint32_t campaign)
{
  // The campaign's queued trials, longest first: by GPU time, plus the metric when it runs on
  // CPUs, so that long CPU work starts early and overlaps the rest (ties by job id). Each free
  // slot (whole groups of a trial's GPUs on one node, lowest node first) takes the longest
  // trial left; the rest wait for the next free slot. This is longest-first list scheduling:
  // it plans only the GPUs free now, so GPUs freed later still serve the campaign.
  const auto& trials = waiting_.campaigns.at(campaign).by_priority;
  bool started = false;
  const auto& topology = mirror().topology();
  int smallest_unplaced = std::numeric_limits<int>::max(); // no slot of this many GPUs or more now
  for (auto it = trials.begin(); it != trials.end();) {
    if (mirror().free_gpus_total() == 0)
      break; // every trial left would find no slot
    const JobId id = (it++)->second; // starting it takes it out of `trials`: step past it first
    const int gpus = view.job(id).gpus;
    if (gpus >= smallest_unplaced)
      continue;
    NodeId node = 0;
    while (node < topology.node_count() && mirror().free_gpus(node) < gpus)
      ++node;
    if (node == topology.node_count()) {
      smallest_unplaced = gpus; // a smaller trial may still fit
      continue;
    }
    const bool last = it == trials.end();
    start_on(view, decision(id, Allocation{{{node, gpus}}}));
    started = true;
    if (last)
      break; // the campaign's last trial: its queue is gone
  }
  return started;
}

} // namespace acmesim
