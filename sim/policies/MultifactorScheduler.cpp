#include "sim/policies/MultifactorScheduler.hpp"

#include "sim/policies/Registries.hpp"
#include "sim/policies/TypeParams.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace acmesim {

namespace {

// QoS value of a job type unless the scenario sets it. An assumption: Acme reserved most of each
// cluster for pretraining and submitted evaluation at low priority into spare capacity (NSDI'24
// §3.2); its Slurm settings are not published.
double default_qos(JobType type)
{
  switch (type) {
    case JobType::Pretrain:
      return 1.0;
    case JobType::Eval:
      return 0.0;
    case JobType::SFT:
    case JobType::MLLM:
    case JobType::Debug:
    case JobType::Other:
      return 0.5;
  }
  return 0.5;
}

std::string qos_param(JobType type) { return type_param("qos", type); }

std::vector<ParamSpec> multifactor_params()
{
  constexpr double DAY_S = 86400;
  // Slurm's defaults where it has one (PriorityMaxAge, PriorityDecayHalfLife, PriorityCalcPeriod,
  // PriorityFavorSmall); its weights default to 0, so the weights here are assumptions: QoS
  // first, then fair share and age, job size off.
  std::vector<ParamSpec> params = easy_backfill_params();
  params.insert(params.end(), {
      {"weight_age", "weight of the age factor (Slurm's PriorityWeightAge)", 1000, 0, 1e9, false},
      {"max_age_s", "queue time at which the age factor reaches 1 (PriorityMaxAge)", 7 * DAY_S, 1, 1e9, false},
      {"weight_fair_share", "weight of the fair-share factor (PriorityWeightFairshare)", 1000, 0, 1e9, false},
      {"half_life_s", "half-life of past GPU usage in the fair-share factor (PriorityDecayHalfLife)", 7 * DAY_S, 1, 1e9,
       false},
      {"weight_job_size", "weight of the job-size factor (PriorityWeightJobSize)", 0, 0, 1e9, false},
      {"favor_small", "1: smaller jobs get the larger job-size factor (PriorityFavorSmall)", 0, 0, 1, true},
      {"weight_qos", "weight of the QoS factor (PriorityWeightQOS)", 10000, 0, 1e9, false},
      {"calc_period_s", "priorities of queued jobs are computed again this often (PriorityCalcPeriod)", 300, 1, 1e9,
       false},
  });
  for (const JobType type : enum_values<JobType>())
    params.push_back({qos_param(type), "QoS factor of " + std::string(to_string(type)) + " jobs",
                      default_qos(type), 0, 1, false});
  return params;
}

MultifactorWeights weights_from(const PolicyParams& params)
{
  MultifactorWeights w;
  w.age = params.number("weight_age");
  w.max_age_s = params.number("max_age_s");
  w.fair_share = params.number("weight_fair_share");
  w.half_life_s = params.number("half_life_s");
  w.job_size = params.number("weight_job_size");
  w.favor_small = params.flag("favor_small");
  w.qos = params.number("weight_qos");
  w.calc_period_s = params.number("calc_period_s");
  for (const JobType type : enum_values<JobType>())
    w.qos_of_type[static_cast<std::size_t>(type)] = params.number(qos_param(type));
  return w;
}

} // namespace

const Registration multifactor(
    scheduler_registry(),
    {"multifactor",
     "Slurm's multifactor priority (age, fair share with decaying usage, job size, QoS per job type) with EASY "
     "backfilling in priority order; the default weights and QoS values are assumptions (docs/built-in-policies.md)",
     multifactor_params()},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<MultifactorScheduler>(topology, std::move(placement), params.integer("backfill_depth"),
                                                    weights_from(params));
    });

MultifactorScheduler::MultifactorScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                                           int backfill_depth,
                                           MultifactorWeights weights)
    : EasyBackfillScheduler(topology, std::move(placement), backfill_depth)
    , weights_(weights)
    , cluster_gpus_(topology.total_gpus())
{
}

std::size_t MultifactorScheduler::user_index(const std::string& user)
{
  const auto [it, added] = user_ids_.try_emplace(user, usage_.size());
  if (added)
    usage_.emplace_back();
  return it->second;
}

// Usage decays continuously: a GPU-second used at time s weighs 2^-((now - s) / half_life) at
// now. Over a stretch dt with r GPUs running, decayed usage u becomes
// u d + r h / ln 2 (1 - d), with d = 2^(-dt / h).
void MultifactorScheduler::bring_usage_to(double now)
{
  const double dt = now - usage_at_;
  if (dt <= 0)
    return;
  const double h = weights_.half_life_s;
  const double d = std::exp2(-dt / h);
  const double per_gpu = h / std::numbers::ln2 * (1 - d);
  total_decayed_gpu_s_ = 0;
  for (Usage& u : usage_) {
    u.decayed_gpu_s = u.decayed_gpu_s * d + u.running_gpus * per_gpu;
    total_decayed_gpu_s_ += u.decayed_gpu_s;
  }
  usage_at_ = now;
}

double MultifactorScheduler::fair_share(const std::string& user) const
{
  const auto it = user_ids_.find(user);
  if (it == user_ids_.end() || total_decayed_gpu_s_ <= 0)
    return 1;
  const double used = usage_[it->second].decayed_gpu_s / total_decayed_gpu_s_;
  const double shares = 1.0 / static_cast<double>(usage_.size());
  return std::exp2(-used / shares);
}

double MultifactorScheduler::priority(const ClusterView& view, JobId id) const
{
  const Job& job = view.job(id);
  const double age = std::min((view.now() - job.submit_s) / weights_.max_age_s, 1.0);
  const double size = static_cast<double>(job.gpus) / cluster_gpus_;
  return weights_.age * age + weights_.fair_share * fair_share(job.user) +
         weights_.job_size * (weights_.favor_small ? 1 - size : size) +
         weights_.qos * weights_.qos_of_type[static_cast<std::size_t>(job.type)];
}

void MultifactorScheduler::enqueue(const ClusterView& view, JobId id)
{
  const double key = -priority(view, id);
  order_.emplace(key, id);
  key_of_[id] = key;
}

void MultifactorScheduler::recompute(const ClusterView& view)
{
  bring_usage_to(view.now());
  order_.clear();
  key_of_.clear();
  for (const JobId id : view.queue())
    enqueue(view, id);
  next_calc_s_ = view.now() + weights_.calc_period_s;
}

void MultifactorScheduler::on_queued(const ClusterView& view, JobId id)
{
  user_index(view.job(id).user);
  bring_usage_to(view.now());
  enqueue(view, id);
}

void MultifactorScheduler::on_started(const ClusterView& view, JobId id)
{
  EasyBackfillScheduler::on_started(view, id);
  bring_usage_to(view.now());
  const int gpus = allocation_of(id).gpus_held();
  usage_[user_index(view.job(id).user)].running_gpus += gpus;
  charged_gpus_.emplace(id, gpus);
  const auto it = key_of_.find(id); // every job it starts comes from order_
  order_.erase({it->second, id});
  key_of_.erase(it);
}

void MultifactorScheduler::on_finished(const ClusterView& view, JobId id)
{
  bring_usage_to(view.now());
  const auto it = charged_gpus_.find(id);
  usage_[user_index(view.job(id).user)].running_gpus -= it->second;
  charged_gpus_.erase(it);
  EasyBackfillScheduler::on_finished(view, id);
}

void MultifactorScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  if (view.now() >= next_calc_s_)
    recompute(view);
  // Starting a job takes it out of order_ (on_started): step past it first.
  auto it = order_.begin();
  while (it != order_.end()) {
    const JobId id = (it++)->second;
    if (try_start(view, id))
      continue;
    if (mirror().free_gpus_total() == 0)
      return;
    BackfillPass pass = backfill_pass(view, id);
    for (int examined = 0; it != order_.end() && examined < backfill_depth(); ++examined)
      if (!pass.consider((it++)->second))
        return;
    return;
  }
}

} // namespace acmesim
