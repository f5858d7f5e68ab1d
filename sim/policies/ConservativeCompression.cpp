// Conservative backfilling's compression: when a job ends before its estimate, each reservation
// in turn moves to the earliest time it fits if that is sooner, and only the reservations that
// the freed GPUs could bring forward are looked at again (ConservativeBackfillScheduler.hpp).
#include "sim/policies/ConservativeBackfillScheduler.hpp"

#include "sim/policy_api/JobShape.hpp"

#include <algorithm>
#include <cstddef>

namespace acmesim {

void ConservativeBackfillScheduler::log_freed(const Allocation& allocation, double from, double until)
{
  if (reservations_.empty())
    return; // no reservation to bring forward; those made later allow for everything before
  for (const Allocation::Part& part : allocation.parts)
    freed_.push_back({part.node, from, until});
}

bool ConservativeBackfillScheduler::may_move_sooner(const ClusterView& view, Held& reservation)
{
  const double now = view.now();
  const int gpus = view.job(reservation.job).gpus;
  const double duration = view.estimate_s(reservation.job);
  const Topology& topology = mirror().topology();
  const auto& pods = topology.spec().pods;
  auto& shapes = shapes_scratch_;
  shapes.clear();
  for (const PodSpec& pod : pods)
    shapes.push_back(job_shape(gpus, pod.gpus_per_node));
  auto& added = added_scratch_; // by pod: nodes freed since that may be wholly free long enough
  added.assign(pods.size(), 0);
  // Each node freed since is read once.
  if (node_seen_.size() != topology.node_count())
    node_seen_.assign(topology.node_count(), 0);
  const std::uint64_t stamp = ++seen_stamp_;
  for (std::uint64_t n = std::max(reservation.looked_at, freed_base_); n < freed_end(); ++n) {
    const Freed& freed = freed_[n - freed_base_];
    // A sooner window ends before this one does.
    if (freed.until <= now || freed.from >= reservation.until || node_seen_[freed.node] == stamp)
      continue;
    node_seen_[freed.node] = stamp;
    const auto& parts = reservation.allocation.parts;
    const auto own = std::find_if(parts.begin(), parts.end(),
                                  [&freed](const Allocation::Part& part) { return part.node == freed.node; });
    const auto pod = static_cast<std::size_t>(topology.pod_of(freed.node));
    if (!shapes[pod].whole_nodes) {
      const FreeGpuTimeline::HeldSpan ignored{own == parts.end() ? 0 : own->gpus, reservation.from, reservation.until};
      if (timeline_->node_fits_before(freed.node, gpus, duration, reservation.from, ignored))
        return true; // it fits sooner there
    } else if (own != parts.end() || timeline_->node_fits_before(freed.node, gpus, duration, reservation.from)) {
      ++added[pod];
    }
  }
  // A job of whole nodes: each node freed since adds at most one to the nodes wholly free together
  // before its start. Only where the last count plus those could reach its size is it counted
  // again, reading its own nodes as free from where their stretch meets the reservation.
  auto& most = reservation.most_wholly_free;
  if (most.empty())
    most.assign(pods.size(), kNotCounted);
  for (std::size_t pod = 0; pod < pods.size(); ++pod) {
    if (added[pod] == 0)
      continue;
    if (most[pod] != kNotCounted && most[pod] + added[pod] < shapes[pod].nodes) {
      most[pod] += added[pod];
      continue;
    }
    most[pod] = timeline_->most_wholly_free_before(static_cast<int>(pod), duration, reservation.from,
                                                   &reservation.allocation);
    if (most[pod] >= shapes[pod].nodes)
      return true;
  }
  return false;
}

void ConservativeBackfillScheduler::compress(const ClusterView& view)
{
  if (bookkeeping_ == Bookkeeping::Kept && freed_.empty())
    return; // nothing was freed since every reservation was last looked at
  const double now = view.now();
  for (std::size_t k = 0; k < reservations_.size();) {
    Held& reservation = reservations_[k];
    if (bookkeeping_ == Bookkeeping::Kept && !may_move_sooner(view, reservation)) {
      reservation.looked_at = freed_end();
      ++k;
      continue;
    }
    timeline_->unhold(reservation.allocation, reservation.from, reservation.until);
    const int gpus = view.job(reservation.job).gpus;
    const double duration = view.estimate_s(reservation.job);
    const auto slot = timeline_->earliest(gpus, duration);
    if (!slot || slot->start >= reservation.from) {
      reservation.most_wholly_free.clear();
      timeline_->hold(reservation.allocation, reservation.from, reservation.until);
      reservation.looked_at = freed_end();
      ++k;
      continue;
    }
    log_freed(reservation.allocation, reservation.from, reservation.until);
    if (slot->start <= now) {
      const JobId job = reservation.job;
      reservations_.erase(reservations_.begin() + static_cast<std::ptrdiff_t>(k));
      --reserved_;
      start_now(view, job, slot->allocation);
      continue;
    }
    reservation.most_wholly_free.clear();
    reservation.allocation = slot->allocation;
    reservation.from = slot->start;
    reservation.until = slot->start + duration;
    timeline_->hold(reservation.allocation, reservation.from, reservation.until);
    reservation.looked_at = freed_end();
    ++k;
  }
  // What every reservation has allowed for is needed no more.
  std::uint64_t needed = freed_end();
  for (const Held& reservation : reservations_)
    needed = std::min(needed, reservation.looked_at);
  for (; freed_base_ < needed; ++freed_base_)
    freed_.pop_front();
}

} // namespace acmesim
