#include "sim/policies/QuotaScheduler.hpp"

#include "sim/policies/Registries.hpp"
#include "sim/policies/TypeParams.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace acmesim {

namespace {

// The prefixes of the per-type parameters (reserved_pretrain, priority_eval, ...).
constexpr std::string_view RESERVED = "reserved";
constexpr std::string_view PRIORITY = "priority";
constexpr std::string_view USER_GPUS = "user_gpus";

// Assumptions where Acme published no setting (docs/built-in-policies.md). Pretraining's reservation is
// its share of Seren's GPU time (69.5%, NSDI'24 Fig. 4), rounded: Acme "reserv[ed] the majority
// of resources for pretraining jobs" (§3.2); the other classes reserve nothing.
double default_reserved_share(JobType type) { return type == JobType::Pretrain ? 0.7 : 0.0; }

// Evaluation lowest, "submitted as a batch ... with lower priority" (§3.2); pretraining highest.
double default_priority(JobType type)
{
  switch (type) {
    case JobType::Pretrain:
      return 2;
    case JobType::Eval:
      return 0;
    case JobType::SFT:
    case JobType::MLLM:
    case JobType::Debug:
    case JobType::Other:
      return 1;
  }
  return 1;
}

// Evaluation batches run a few jobs at a time per user: 24 GPUs, an assumption fitted to the
// published evaluation queueing delays (docs/built-in-policies.md); the other classes have no limit.
double default_user_gpus(JobType type) { return type == JobType::Eval ? 24 : 0; }

std::vector<ParamSpec> quota_params()
{
  std::vector<ParamSpec> params = easy_backfill_params();
  params.insert(params.end(), {
      {"reclaim", "1: a job within its class's reservation preempts borrowers to start; 0: it waits for them", 1, 0,
       1, true},
  });
  for (const JobType type : enum_values<JobType>())
    params.push_back({type_param(RESERVED, type),
                      "share of each pod's GPUs reserved for " + std::string(to_string(type)) + " jobs",
                      default_reserved_share(type), 0, 1, false});
  for (const JobType type : enum_values<JobType>())
    params.push_back({type_param(PRIORITY, type),
                      "queue priority of " + std::string(to_string(type)) + " jobs (higher goes first)",
                      default_priority(type), 0, 1e6, false});
  for (const JobType type : enum_values<JobType>())
    params.push_back({type_param(USER_GPUS, type),
                      "GPUs one user's running " + std::string(to_string(type)) +
                          " jobs may hold at once; a job beyond it waits (0: no limit)",
                      default_user_gpus(type), 0, 1e6, true});
  return params;
}

std::string check_reservations(const PolicyParams& params)
{
  double total = 0;
  std::string names;
  for (const JobType type : enum_values<JobType>()) {
    const std::string name = type_param(RESERVED, type);
    total += params.number(name);
    names += (names.empty() ? "" : " + ") + name;
  }
  if (total <= 1 + 1e-9)
    return "";
  return fmt::format("{} is {:g}; the reservations of a pod cannot exceed its GPUs (at most 1 in all)", names,
                     total);
}

QuotaRules rules_from(const PolicyParams& params)
{
  QuotaRules rules;
  for (const JobType type : enum_values<JobType>()) {
    rules.reserved_share[static_cast<std::size_t>(type)] = params.number(type_param(RESERVED, type));
    rules.priority[static_cast<std::size_t>(type)] = params.number(type_param(PRIORITY, type));
    rules.user_gpus[static_cast<std::size_t>(type)] = params.integer(type_param(USER_GPUS, type));
  }
  rules.reclaim_by_preemption = params.flag("reclaim");
  return rules;
}

} // namespace

const Registration quota(
    scheduler_registry(),
    {"quota",
     "Acme's quotas: per job type a reserved share of each pod and a priority; idle GPUs are lent to any class "
     "and reclaimed by preempting borrowers (or by waiting); EASY backfilling in priority order; the defaults "
     "are assumptions (docs/built-in-policies.md)",
     quota_params(), check_reservations},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<QuotaScheduler>(topology, std::move(placement), params.integer("backfill_depth"),
                                              rules_from(params));
    });

QuotaScheduler::QuotaScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                               int backfill_depth, QuotaRules rules)
    : EasyBackfillScheduler(topology, std::move(placement), backfill_depth)
    , rules_(rules)
    , reserved_(topology.pod_count() * JOB_CLASS_COUNT, 0)
    , used_(reserved_.size(), 0)
    , latest_(reserved_.size())
{
  const auto& pods = topology.spec().pods;
  for (int pod = 0; pod < static_cast<int>(pods.size()); ++pod) {
    const int gpus = pods[static_cast<std::size_t>(pod)].nodes * pods[static_cast<std::size_t>(pod)].gpus_per_node;
    for (const JobType type : enum_values<JobType>())
      reserved_[slot(pod, type)] =
          static_cast<int>(std::floor(rules_.reserved_share[static_cast<std::size_t>(type)] * gpus + 1e-9));
  }
}

void QuotaScheduler::on_queued(const ClusterView& view, JobId id)
{
  order_.emplace(-priority(view.job(id).type), id);
}

void QuotaScheduler::on_started(const ClusterView& view, JobId id)
{
  EasyBackfillScheduler::on_started(view, id);
  const Job& job = view.job(id);
  const Allocation& allocation = allocation_of(id);
  const Running r{mirror().topology().pod_of(allocation.parts.front().node), job.type, allocation.gpus_held(),
                  view.now(), user_index(job.user)};
  running_.emplace(id, r);
  user_gpus(r.user, r.type) += r.gpus;
  used_[slot(r.pod, r.type)] += r.gpus;
  latest_[slot(r.pod, r.type)].emplace(-r.start_s, -static_cast<std::int64_t>(id));
  order_.erase({-priority(job.type), id});
}

void QuotaScheduler::on_finished(const ClusterView& view, JobId id)
{
  const auto it = running_.find(id);
  const Running& r = it->second;
  used_[slot(r.pod, r.type)] -= r.gpus;
  user_gpus(r.user, r.type) -= r.gpus;
  latest_[slot(r.pod, r.type)].erase({-r.start_s, -static_cast<std::int64_t>(id)});
  running_.erase(it);
  EasyBackfillScheduler::on_finished(view, id);
}

std::size_t QuotaScheduler::user_index(const std::string& user)
{
  const auto [it, added] = user_ids_.try_emplace(user, user_ids_.size());
  if (added)
    user_used_.resize(user_ids_.size() * JOB_CLASS_COUNT, 0);
  return it->second;
}

bool QuotaScheduler::eligible(const Job& job, JobId id)
{
  if (preempted_this_pass_.count(id) > 0)
    return false;
  const int limit = rules_.user_gpus[static_cast<std::size_t>(job.type)];
  if (limit <= 0)
    return true;
  // A job alone in its class for its user always may, however large: the limit spreads a user's
  // batch over time, it never holds a job back forever.
  const int held = user_gpus(user_index(job.user), job.type);
  const int node_gpus = mirror().topology().spec().pods.front().gpus_per_node;
  return held == 0 || held + job_shape(job.gpus, node_gpus).gpus_held() <= limit;
}

std::vector<int> QuotaScheduler::owned_pods(const Job& job) const
{
  std::vector<int> pods;
  const auto& spec = mirror().topology().spec().pods;
  for (int pod = 0; pod < static_cast<int>(spec.size()); ++pod) {
    const int held = job_shape(job.gpus, spec[static_cast<std::size_t>(pod)].gpus_per_node).gpus_held();
    if (used(pod, job.type) + held <= reserved(pod, job.type))
      pods.push_back(pod);
  }
  return pods;
}

std::vector<JobId> QuotaScheduler::borrowers(const ClusterView& view, int pod, JobType owner) const
{
  // Classes above their reservation on the pod, lowest priority first (then by type).
  std::vector<JobType> lenders;
  for (const JobType type : enum_values<JobType>())
    if (type != owner && used(pod, type) > reserved(pod, type))
      lenders.push_back(type);
  std::stable_sort(lenders.begin(), lenders.end(),
                   [this](JobType a, JobType b) { return priority(a) < priority(b); });
  std::vector<JobId> victims;
  for (const JobType type : lenders) {
    // Latest started first, while the class is still above its reservation.
    int above = used(pod, type) - reserved(pod, type);
    for (const auto& [neg_start, neg_id] : latest_[slot(pod, type)]) {
      if (above <= 0)
        break;
      const auto id = static_cast<JobId>(-neg_id);
      if (!view.preemptible(id))
        continue;
      victims.push_back(id);
      above -= running_.at(id).gpus;
    }
  }
  return victims;
}

bool QuotaScheduler::reclaim_for(const ClusterView& view, JobId id)
{
  const Job& job = view.job(id);
  for (const int pod : owned_pods(job)) {
    const std::vector<JobId> victims = borrowers(view, pod, job.type);
    const std::size_t taken = start_by_preempting(view, id, victims);
    if (taken == 0)
      continue;
    preempted_this_pass_.insert(victims.begin(), victims.begin() + static_cast<std::ptrdiff_t>(taken));
    return true;
  }
  return false;
}

void QuotaScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  preempted_this_pass_.clear();
  // Starting a job takes it out of order_ (on_started): step past it first. Preempted jobs join
  // order_ during the pass; they are skipped until the next one.
  auto it = order_.begin();
  while (it != order_.end()) {
    const JobId id = (it++)->second;
    if (!eligible(view.job(id), id))
      continue;
    if (try_start(view, id))
      continue;
    if (rules_.reclaim_by_preemption && reclaim_for(view, id))
      continue;
    if (mirror().free_gpus_total() == 0)
      return;
    BackfillPass pass = backfill_pass(view, id);
    for (int examined = 0; it != order_.end() && examined < backfill_depth(); ++examined) {
      const JobId candidate = (it++)->second;
      if (eligible(view.job(candidate), candidate) && !pass.consider(candidate))
        return;
    }
    return;
  }
}

} // namespace acmesim
