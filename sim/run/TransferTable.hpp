#pragma once
// Storage flows in flight and whom each belongs to: a GPU job (checkpoint write, upload or load),
// a group of evaluation trials (its model, loaded from storage), or a node's copy of a campaign's
// model in host memory; and whether the storage service is up to take new ones. The flows
// themselves are the engine's (TransferService).
#include "models/workload/Job.hpp"
#include "sim/policy_api/JobShape.hpp"
#include "sim/run/TransferService.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace acmesim {

struct TransferOwner {
  enum class Kind : std::uint8_t { Job, TrialGroup, NodeModel };
  Kind kind = Kind::Job;
  std::uint64_t key = 0; // job id, group leader id, or node model key
};

class TransferTable {
public:
  explicit TransferTable(TransferService* service) : service_(service) {}

  // Moves `bytes_per_node` between every node of `allocation` and storage.
  TransferId start(TransferOwner owner, const Allocation& allocation, double bytes_per_node,
                   TransferDirection direction);
  void cancel(TransferId id);
  // The owner of a transfer whose flows all ended, now forgotten; nullopt if it was cancelled.
  std::optional<TransferOwner> finish(TransferId id);
  // GPU jobs with a transfer in flight, by id (each once).
  std::vector<JobId> jobs_moving_data() const;
  // The engine's lone-flow shares (TransferService::lone_flow_shares).
  LoneFlowShares lone_flow_shares() const { return service_->lone_flow_shares(); }
  // While the storage service is down (failed, under repair), new transfers must wait.
  bool storage_up() const { return storage_up_; }
  void set_storage_up(bool up) { storage_up_ = up; }

private:
  TransferService* service_;
  bool storage_up_ = true;
  std::map<TransferId, TransferOwner> owners_;
  TransferId next_id_ = 1;
};

} // namespace acmesim
