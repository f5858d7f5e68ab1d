#pragma once
// Recorded failure lists (docs/failures.md): a CSV with one failure per row that replaces the
// failure model, so that two policies can be compared on exactly the same failures. Every run
// with failures writes the failures it applied in the same format (failures.csv).
//
//   time_s,component,target,category,repair_s,repair_kind
//   3600,node,seren-n12,node_failure,7200,reboot
//
// target is a node name for node, gpu, nvlink and nic; a leaf switch name for leaf_switch;
// "storage" for storage. repair_kind (reboot | replacement) may be omitted (reboot).
#include "models/cluster/Topology.hpp"
#include "models/failure/FailureEvent.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace acmesim {

// Parses and validates a list; rows are sorted by time (stably, so file order breaks ties).
// Throws InputError naming file, line, column and value for every bad row.
std::vector<FailureEvent> read_failure_list(const std::string& path, const Topology& topology);
std::vector<FailureEvent> parse_failure_list(std::istream& in, const std::string& source_name,
                                             const Topology& topology);
void write_failure_list(std::ostream& out, const std::vector<FailureEvent>& events, const Topology& topology);

// Replays a list in order.
class RecordedFailureSource final : public FailureSource {
public:
  explicit RecordedFailureSource(std::vector<FailureEvent> events) : events_(std::move(events)) {}
  double next_time() const override;
  FailureEvent pop() override;

private:
  std::vector<FailureEvent> events_;
  std::size_t next_ = 0;
};

} // namespace acmesim
