#include "sim/policies/ConservativeBackfillScheduler.hpp"

#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/FreeGpuTimeline.hpp"
#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <unordered_map>

namespace acmesim {

const Registration conservative_backfill(
    scheduler_registry(),
    {"conservative-backfill",
     "conservative backfilling: every queued job holds a reservation, and a later job starts early only if it "
     "delays none of them",
     [] {
       std::vector<ParamSpec> params = easy_backfill_params();
       params.push_back({"replan_every_end",
                         "1: every job end works all reservations out anew from the queue (they may move later; "
                         "a whole plan per job end); 0: reservations stand, compressed when jobs end early",
                         0, 0, 1, true});
       return params;
     }()},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      using Conservative = ConservativeBackfillScheduler;
      return std::make_unique<Conservative>(topology, std::move(placement), params.integer("backfill_depth"),
                                            Conservative::Bookkeeping::Kept,
                                            params.integer("replan_every_end") != 0 ? Conservative::AtJobEnd::Replan
                                                                                    : Conservative::AtJobEnd::Compress);
    });

ConservativeBackfillScheduler::ConservativeBackfillScheduler(const Topology& topology,
                                                             std::unique_ptr<PlacementPolicy> placement,
                                                             int backfill_depth, Bookkeeping bookkeeping,
                                                             AtJobEnd at_job_end)
    : QueueScheduler(topology, std::move(placement))
    , backfill_depth_(backfill_depth)
    , bookkeeping_(bookkeeping)
    , at_job_end_(at_job_end)
{
}

void ConservativeBackfillScheduler::on_started(const ClusterView& view, JobId job)
{
  running_.started(job, view.now() + view.estimate_s(job));
  const auto by_gpus = queued_estimates_.find(view.job(job).gpus);
  if (by_gpus == queued_estimates_.end())
    return; // the index is out of step (a job left the queue unseen): the next pass rebuilds it
  const auto it = by_gpus->second.find(view.estimate_s(job));
  if (it == by_gpus->second.end())
    return;
  by_gpus->second.erase(it);
  if (by_gpus->second.empty())
    queued_estimates_.erase(by_gpus);
}

std::optional<double> ConservativeBackfillScheduler::reserved_start(JobId job) const
{
  if (!timeline_current_)
    return std::nullopt; // this plan has reserved nothing yet: those listed are the last plan's
  const auto it = std::find_if(reservations_.begin(), reservations_.end(),
                               [job](const Held& reservation) { return reservation.job == job; });
  return it == reservations_.end() ? std::nullopt : std::optional<double>(it->from);
}

void ConservativeBackfillScheduler::on_queued(const ClusterView& view, JobId job)
{
  queued_estimates_[view.job(job).gpus].insert(view.estimate_s(job));
  arrivals_.push_back(job);
  arrived_.insert(job);
}

void ConservativeBackfillScheduler::index_queue(const ClusterView& view)
{
  queued_estimates_.clear();
  for (const JobId job : view.queue())
    queued_estimates_[view.job(job).gpus].insert(view.estimate_s(job));
}

std::size_t ConservativeBackfillScheduler::queued_indexed() const
{
  std::size_t count = 0;
  for (const auto& by_gpus : queued_estimates_)
    count += by_gpus.second.size();
  return count;
}

bool ConservativeBackfillScheduler::any_queued_may_start() const
{
  // The shortest job of each size is the one most likely to fit now.
  return std::any_of(queued_estimates_.begin(), queued_estimates_.end(), [this](const auto& by_gpus) {
    return timeline_->may_start_now(by_gpus.first, *by_gpus.second.begin());
  });
}

void ConservativeBackfillScheduler::on_finished(const ClusterView& view, JobId job)
{
  const std::optional<double> estimated_end = running_.end_of(job);
  running_.ended(job);
  const double now = view.now();
  if (at_job_end_ == AtJobEnd::Replan || !estimated_end || *estimated_end < now) {
    plan_valid_ = false; // made anew: asked to, or it ran past its estimate (the plan had its end sooner)
    return;
  }
  // Ended by its estimate: the plan stands, and is compressed into the GPUs it frees early.
  if (!timeline_current_)
    return; // the plan holds no reservation
  const auto it = running_on_timeline_.find(job);
  if (it == running_on_timeline_.end() || it->second.at != *estimated_end) {
    plan_valid_ = false;
    return;
  }
  if (*estimated_end > now) {
    const Allocation& allocation = it->second.allocation;
    timeline_->take_back(allocation, *estimated_end);
    timeline_->release(allocation, now);
    log_freed(allocation, now, *estimated_end);
  }
  running_on_timeline_.erase(it);
}

Allocation ConservativeBackfillScheduler::place_now(const FreeGpuTimeline& timeline, int gpus, double duration_s,
                                                    double now)
{
  // GPUs free now but reserved for a later job before this one would end are hidden from the
  // placement policy; without such GPUs it places on the mirror itself.
  std::vector<Allocation::Part> hidden;
  for (NodeId node = 0; node < mirror().topology().node_count(); ++node) {
    const int usable = timeline.min_free(node, now, now + duration_s);
    if (usable < mirror().free_gpus(node))
      hidden.push_back({node, mirror().free_gpus(node) - usable});
  }
  if (hidden.empty())
    return placement().place(mirror(), gpus);
  ClusterState usable = mirror();
  usable.take(Allocation{hidden});
  return placement().place(usable, gpus);
}

double ConservativeBackfillScheduler::release_time(double estimated_end, double now)
{
  // A job past its estimate may end at any moment: just after now.
  return std::max(estimated_end, std::nextafter(now, std::numeric_limits<double>::infinity()));
}

const Allocation& ConservativeBackfillScheduler::track_running(JobId job, double estimated_end, double now)
{
  return (running_on_timeline_[job] = Released{allocation_of(job), release_time(estimated_end, now)}).allocation;
}

void ConservativeBackfillScheduler::rebuild_timeline(double now, bool with_reservations)
{
  timeline_.reset();
  timeline_.emplace(mirror(), now);
  running_on_timeline_.clear();
  for (const auto& [end, job] : running_.by_end())
    timeline_->release(track_running(job, end, now), release_time(end, now));
  if (with_reservations)
    for (const Held& reservation : reservations_)
      timeline_->hold(reservation.allocation, reservation.from, reservation.until);
  else
    reservations_.clear();
}

void ConservativeBackfillScheduler::timeline_now(double now)
{
  const auto& ends = running_.by_end();
  ends_taken_as_next_moment_ =
      !ends.empty() && ends.begin()->first < release_time(-std::numeric_limits<double>::infinity(), now);
  // Taking the reservations back costs about what making them did: past one per node, building
  // the timeline anew is cheaper. Either way it is the same timeline.
  std::size_t reserved_parts = 0;
  for (const Held& reservation : reservations_)
    reserved_parts += reservation.allocation.parts.size();
  if (!timeline_ || bookkeeping_ == Bookkeeping::Fresh || reserved_parts > mirror().topology().node_count()) {
    rebuild_timeline(now, false);
    return;
  }
  timeline_->advance_to(now);
  for (const Held& reservation : reservations_)
    timeline_->unhold(reservation.allocation, reservation.from, reservation.until);
  reservations_.clear();
  // Jobs that ended give their GPUs back now; the others' ends move where release_time says.
  for (auto it = running_on_timeline_.begin(); it != running_on_timeline_.end();) {
    Released& released = it->second;
    const std::optional<double> end = running_.end_of(it->first);
    const double at = end ? release_time(*end, now) : now;
    if (at != released.at) {
      timeline_->take_back(released.allocation, released.at);
      timeline_->release(released.allocation, at);
      released.at = at;
    }
    it = end ? std::next(it) : running_on_timeline_.erase(it);
  }
  // Jobs started while the timeline was not kept up to date hold their GPUs from now.
  for (const auto& [end, job] : ends)
    if (!running_on_timeline_.count(job))
      timeline_->hold(track_running(job, end, now), now, release_time(end, now));
}

bool ConservativeBackfillScheduler::plan_stands(const std::vector<SchedulerEvent>& events, double now) const
{
  const auto& ends = running_.by_end();
  if (!plan_valid_ || ends_taken_as_next_moment_ || (!ends.empty() && ends.begin()->first <= now))
    return false;
  // A job that ended after its estimate made the plan invalid (on_finished).
  return std::all_of(events.begin(), events.end(), [](const SchedulerEvent& e) {
    return e.kind == EventKind::JobSubmitted || e.kind == EventKind::JobFinished;
  });
}

bool ConservativeBackfillScheduler::start_due(const ClusterView& view)
{
  const double now = view.now();
  // Every reserved time is some job's planned end, when a pass runs: a due reservation begins now.
  std::unordered_map<NodeId, int> wanted;
  for (const Held& reservation : reservations_) {
    if (reservation.from > now)
      continue;
    if (reservation.from < now || !view.queue().count(reservation.job))
      return false;
    for (const Allocation::Part& part : reservation.allocation.parts)
      if ((wanted[part.node] += part.gpus) > mirror().free_gpus(part.node))
        return false;
  }
  if (wanted.empty())
    return true;
  const auto due = [now](const Held& reservation) { return reservation.from <= now; };
  for (const Held& reservation : reservations_) {
    if (!due(reservation))
      continue;
    // On the nodes it holds: its hold on the timeline is now the running job's.
    running_on_timeline_[reservation.job] = Released{reservation.allocation, reservation.until};
    start_on(view, reservation.job, reservation.allocation);
    --reserved_;
  }
  reservations_.erase(std::remove_if(reservations_.begin(), reservations_.end(), due), reservations_.end());
  return true;
}

void ConservativeBackfillScheduler::start_now(const ClusterView& view, JobId job, const Allocation& planned)
{
  const double now = view.now();
  const double duration = view.estimate_s(job);
  Allocation allocation = place_now(*timeline_, view.job(job).gpus, duration, now);
  if (allocation.empty())
    allocation = planned;
  timeline_->hold(allocation, now, now + duration);
  running_on_timeline_[job] = Released{allocation, now + duration};
  start_on(view, job, std::move(allocation));
}

void ConservativeBackfillScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events)
{
  if (queued_indexed() != view.queue().size())
    index_queue(view);
  if (plan_stands(events, view.now())) {
    // The jobs planned keep their reservations; those whose time has come start on them, and the
    // plan goes on from where it stopped.
    if (reservations_.empty())
      timeline_current_ = false; // nothing lies ahead: jobs start where they fit, as in a new plan
    if (!timeline_current_) {
      plan(view);
      return;
    }
    if (bookkeeping_ == Bookkeeping::Fresh)
      rebuild_timeline(view.now(), true);
    else
      timeline_->advance_to(view.now());
    if (start_due(view)) {
      compress(view);
      plan(view);
      return;
    }
  }
  timeline_current_ = false;
  reserved_ = 0;
  freed_base_ = freed_end(); // the plan made anew allows for everything so far
  freed_.clear();
  planned_through_.reset();
  arrivals_.clear();
  arrived_.clear();
  arrivals_planned_ = 0;
  plan_valid_ = true;
  plan(view);
}

std::optional<JobId> ConservativeBackfillScheduler::next_to_plan(const ClusterView& view)
{
  const auto& queue = view.queue();
  for (auto it = planned_through_ ? queue.upper_bound(*planned_through_) : queue.begin(); it != queue.end(); ++it) {
    planned_through_ = *it;
    if (!arrived_.count(*it))
      return *it;
  }
  while (arrivals_planned_ < arrivals_.size()) {
    const JobId job = arrivals_[arrivals_planned_++];
    if (queue.count(job))
      return job;
  }
  return std::nullopt;
}

void ConservativeBackfillScheduler::plan(const ClusterView& view)
{
  const double now = view.now();
  // Until a job does not fit now, no reservation lies ahead: jobs start where the placement
  // policy puts them, and the timeline (which counts them) is built only when first needed.
  while (reserved_ < backfill_depth_) {
    const std::optional<JobId> id = next_to_plan(view);
    if (!id)
      return;
    if (!timeline_current_) {
      if (try_start(view, *id))
        continue;
      timeline_now(now);
      timeline_current_ = true;
    }
    const Job& job = view.job(*id);
    const double duration = view.estimate_s(*id);
    const auto slot = timeline_->earliest(job.gpus, duration);
    if (slot && slot->start <= now) {
      start_now(view, *id, slot->allocation);
      continue;
    }
    if (slot) { // else it fits nowhere with the nodes in service: planned, without a reservation
      reservations_.push_back(Held{*id, slot->allocation, slot->start, slot->start + duration, freed_end(), {}});
      timeline_->hold(slot->allocation, slot->start, slot->start + duration);
    }
    ++reserved_;
    if (!any_queued_may_start())
      return; // the rest is planned when a pass that keeps this plan needs it
  }
}

} // namespace acmesim
