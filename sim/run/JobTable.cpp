#include "sim/run/JobTable.hpp"

namespace acmesim {

JobTable::JobTable(const Workload& workload)
    : workload_(&workload)
    , first_job_(workload.jobs.data())
    , workload_jobs_(workload.jobs.size())
    , records_(workload.jobs.size())
{
}

const EvalChunk& JobTable::chunk(JobId id) const
{
  const auto k = static_cast<std::size_t>(job(id).eval_chunk);
  const auto& base = workload_->eval_chunks;
  return k < base.size() ? base[k] : added_chunks_[k - base.size()];
}

void JobTable::started(JobId id, double now)
{
  JobRecord& record = records_.at(id);
  record.outcome = JobOutcome::Running;
  if (record.start_s < 0)
    record.start_s = now;
}

void JobTable::requeued(JobId id) { records_.at(id).outcome = JobOutcome::Pending; }

void JobTable::ended(JobId id, double now)
{
  JobRecord& record = records_.at(id);
  record.outcome = JobOutcome::Ended;
  record.end_s = now;
  ++ended_;
}

void JobTable::rejected(JobId id)
{
  records_.at(id).outcome = JobOutcome::Rejected;
  ++rejected_;
}

JobId JobTable::add_trial(Job trial, EvalChunk chunk)
{
  const auto id = static_cast<JobId>(count());
  trial.id = id;
  trial.eval_chunk = static_cast<std::int32_t>(workload_->eval_chunks.size() + added_chunks_.size());
  added_chunks_.push_back(chunk);
  added_jobs_.push_back(std::move(trial));
  records_.emplace_back();
  return id;
}

} // namespace acmesim
