#include "sim/run/TransferTable.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

TransferId TransferTable::start(TransferOwner owner, const Allocation& allocation, double bytes_per_node,
                                TransferDirection direction)
{
  if (!service_)
    throw std::logic_error("a storage transfer in a run set up without a transfer service");
  const TransferId id = next_id_++;
  owners_.emplace(id, owner);
  service_->start(id, allocation, bytes_per_node, direction);
  return id;
}

void TransferTable::cancel(TransferId id)
{
  service_->cancel(id);
  owners_.erase(id);
}

std::optional<TransferOwner> TransferTable::finish(TransferId id)
{
  const auto it = owners_.find(id);
  if (it == owners_.end())
    return std::nullopt; // cancelled by a failure at this same instant
  const TransferOwner owner = it->second;
  owners_.erase(it);
  return owner;
}

std::vector<JobId> TransferTable::jobs_moving_data() const
{
  std::vector<JobId> jobs;
  for (const auto& [id, owner] : owners_)
    if (owner.kind == TransferOwner::Kind::Job)
      jobs.push_back(static_cast<JobId>(owner.key));
  std::sort(jobs.begin(), jobs.end());
  jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
  return jobs;
}

} // namespace acmesim
