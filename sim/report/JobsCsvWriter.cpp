#include "sim/report/Reports.hpp"

#include "models/common/FixedDecimal.hpp"
#include "models/common/Text.hpp"
#include "models/traces/JobsCsvColumns.hpp"
#include "sim/report/SummaryParts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace acmesim {

namespace {

std::string_view state_column(const Job& job, const JobRecord& record, const JobFaultStats* stats)
{
  if (record.outcome == JobOutcome::Rejected)
    return REJECTED_STATE;
  if (record.outcome == JobOutcome::Pending)
    return STALLED_STATE;
  if (stats && stats->gave_up)
    return to_string(JobState::NodeFail); // given up after too many interruptions
  return to_string(job.final_state);
}

// Every node `id` held: those of its allocation, in its order, then, for a job that lost nodes
// or was queued again, those it held before, all sorted and distinct.
void nodes_held(const Run& run, JobId id, std::vector<NodeId>& held)
{
  held.clear();
  for (const auto& part : run.allocation(id).parts)
    held.push_back(part.node);
  if (const std::vector<NodeId>* earlier = run.earlier_nodes(id)) {
    held.insert(held.end(), earlier->begin(), earlier->end());
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
  }
}

// The rows of jobs.csv, field by field, written out a megabyte at a time. Each field goes
// straight into the block, without a format string or an intermediate copy: jobs.csv has one
// row of 26 to 34 fields per job (819,389 rows, 133 MB, in the trace benchmark).
class CsvRows {
public:
  explicit CsvRows(std::ostream& out) : out_(out), block_(BLOCK_BYTES) {}

  CsvRows& text(std::string_view s)
  {
    std::memcpy(room(s.size()), s.data(), s.size());
    used_ += s.size();
    return *this;
  }
  // Free text (names, users): quoted only when it holds a comma, a quote or a line break.
  CsvRows& field(std::string_view s)
  {
    return needs_csv_quotes(s) ? text(csv_field(s)) : text(s);
  }
  CsvRows& comma()
  {
    *room(1) = ',';
    ++used_;
    return *this;
  }
  template <typename Integer>
  CsvRows& integer(Integer n)
  {
    const fmt::format_int digits(n);
    return text({digits.data(), digits.size()});
  }
  CsvRows& seconds(double s) { return fixed(Fixed{s, 3}); } // milliseconds, "{:.3f}"
  CsvRows& ratio(double r) { return fixed(Fixed{r, 6}); }   // "{:.6f}"
  CsvRows& gigabytes_per_s(double Bps) { return fixed(Fixed{Bps / 1e9, 3}); } // to the MB/s
  void end_row()
  {
    *room(1) = '\n';
    ++used_;
    if (used_ >= FLUSH_AT)
      flush();
  }
  void flush()
  {
    out_.write(block_.data(), static_cast<std::streamsize>(used_));
    used_ = 0;
  }

private:
  // Rows are flushed once the block holds a megabyte; the slack above that takes the row being
  // written, and the block grows for the rare row longer than the slack.
  static constexpr std::size_t FLUSH_AT = std::size_t{1} << 20;
  static constexpr std::size_t BLOCK_BYTES = FLUSH_AT + (std::size_t{1} << 16);

  // Where the next `n` chars go.
  char* room(std::size_t n)
  {
    if (block_.size() - used_ < n)
      block_.resize(std::max(block_.size() * 2, used_ + n));
    return block_.data() + used_;
  }
  CsvRows& fixed(Fixed value)
  {
    if (!has_fast_fixed(value)) {
      fmt::memory_buffer slow;
      append_fixed(slow, value);
      return text({slow.data(), slow.size()});
    }
    used_ += write_fixed(room(FIXED_TEXT_MAX), value);
    return *this;
  }

  std::ostream& out_;
  std::vector<char> block_;
  std::size_t used_ = 0;
};

// Whether the source recorded a value of `column`, one of the recorded columns, for `job`.
bool has_recorded(const Job& job, JobsCsvColumn column)
{
  switch (column) {
    case JobsCsvColumn::RecordedWaitS:
      return job.recorded_wait_s >= 0;
    case JobsCsvColumn::RequestedS:
      return job.requested_s >= 0;
    case JobsCsvColumn::RequestedProcs:
      return job.requested_procs >= 0;
    case JobsCsvColumn::Group:
      return !job.recorded_labels().group.empty();
    case JobsCsvColumn::Queue:
      return !job.recorded_labels().queue.empty();
    case JobsCsvColumn::Partition:
      return !job.recorded_labels().partition.empty();
    default: // not a recorded column
      return false;
  }
}

// The recorded columns some job of the run has a value in: only those are written.
std::vector<JobsCsvColumn> recorded_columns(const JobTable& jobs)
{
  std::vector<JobsCsvColumn> columns;
  for (const JobsCsvColumn column : enum_values<JobsCsvColumn>())
    if (column >= FIRST_RECORDED_COLUMN && column <= LAST_RECORDED_COLUMN)
      for (JobId id = 0; id < jobs.count(); ++id)
        if (has_recorded(jobs.job(id), column)) {
          columns.push_back(column);
          break;
        }
  return columns;
}

// A recorded column's cell: empty where the source recorded nothing.
void write_recorded(CsvRows& row, const Job& job, JobsCsvColumn column)
{
  row.comma();
  if (!has_recorded(job, column))
    return;
  switch (column) {
    case JobsCsvColumn::RecordedWaitS:
      row.seconds(job.recorded_wait_s);
      break;
    case JobsCsvColumn::RequestedS:
      row.seconds(job.requested_s);
      break;
    case JobsCsvColumn::RequestedProcs:
      row.integer(job.requested_procs);
      break;
    case JobsCsvColumn::Group:
      row.field(job.recorded_labels().group);
      break;
    case JobsCsvColumn::Queue:
      row.field(job.recorded_labels().queue);
      break;
    case JobsCsvColumn::Partition:
      row.field(job.recorded_labels().partition);
      break;
    default: // has_recorded admits no other
      break;
  }
}

} // namespace

void write_jobs_csv(std::ostream& out, const RunResult& result, bool network_on)
{
  const auto& topology = *result.topology;
  const Run& run = *result.run;
  // The columns in their declared order (JobsCsvColumns.hpp): the recorded ones some job has a value
  // in, and with the network model the last two, each job's training wall time over its reference
  // time and the bus bandwidth its ring got (docs/network.md).
  const std::vector<JobsCsvColumn> recorded = recorded_columns(run.jobs());
  for (const JobsCsvColumn column : enum_values<JobsCsvColumn>())
    if (column < FIRST_RECORDED_COLUMN || (column > LAST_RECORDED_COLUMN && network_on) ||
        std::find(recorded.begin(), recorded.end(), column) != recorded.end())
      out << (column == JobsCsvColumn::JobName ? "" : ",") << to_string(column);
  out << '\n';
  CsvRows row(out);
  std::vector<NodeId> held;
  std::vector<LeafId> leaves;
  for (JobId id = 0; id < run.jobs().count(); ++id) {
    const Job& job = run.jobs().job(id);
    const JobRecord& r = run.jobs().record(id);
    const Allocation& allocation = run.allocation(id);
    const JobFaultStats* stats = run.statistics().fault_stats(id); // null for most jobs
    const bool ran = r.outcome == JobOutcome::Ended;
    nodes_held(run, id, held);
    leaves.clear();
    for (const NodeId node : held)
      leaves.push_back(topology.leaf_of(node));
    std::sort(leaves.begin(), leaves.end());
    const auto leaf_count = static_cast<std::size_t>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
    row.field(job.name).comma().text(to_string(job.type)).comma().field(job.user.get()).comma();
    row.integer(job.gpus).comma().integer(held.size()).comma().integer(job.cpus).comma().seconds(job.submit_s).comma();
    if (ran) {
      row.seconds(r.start_s).comma().seconds(r.end_s).comma();
      row.seconds(r.start_s - job.submit_s).comma().seconds(r.end_s - job.submit_s).comma();
    } else {
      row.text(",,,,");
    }
    row.text(state_column(job, r, stats)).comma();
    if (!allocation.empty())
      row.text(topology.spec().pods[static_cast<std::size_t>(topology.pod_of(allocation.parts.front().node))].name);
    row.comma().integer(leaf_count).comma();
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (i > 0)
        row.text(" ");
      row.text(topology.node_name(held[i]));
    }
    const JobFaultStats none;
    const JobFaultStats& f = stats ? *stats : none;
    const JobTimeSplit split = time_split(job, r, stats, run.statistics().trial_times(id));
    row.comma().integer(f.interruptions).comma().integer(f.preemptions).comma().integer(f.checkpoints).comma();
    if (split.ran)
      row.seconds(split.useful_s);
    row.comma().seconds(f.lost_s).comma().seconds(f.preempted_s).comma().seconds(f.checkpoint_s).comma();
    row.seconds(f.detection_s).comma().seconds(f.waiting_for_person_s).comma().seconds(f.restart_s).comma();
    if (split.ran)
      row.ratio(split.ettr);
    for (const JobsCsvColumn column : recorded)
      write_recorded(row, job, column);
    if (network_on) {
      row.comma();
      if (ran)
        row.ratio(run.statistics().slowdown(id));
      row.comma();
      if (const std::optional<double> bus = run.statistics().ring_bandwidth_Bps(id))
        row.gigabytes_per_s(*bus);
    }
    row.end_row();
  }
  row.flush();
}

} // namespace acmesim
