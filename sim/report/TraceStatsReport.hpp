#pragma once
// The report of `acmesim workload stats`: a trace's statistics, and optionally their
// comparison with the published Acme values, as JSON (for tools) or aligned text tables.
#include "models/acme/PublishedAcme.hpp"
#include "models/acme/TraceComparison.hpp"
#include "models/acme/TraceStatistics.hpp"
#include "models/traces/TraceFormat.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace acmesim {

inline constexpr const char* ACME_CITATION = "Hu et al., NSDI'24, AcmeTrace release (CC BY 4.0)";

struct TraceStatsSource {
  std::string trace; // as given on the command line
  TraceFormat format = TraceFormat::Acme;
};

// `comparison` and `published` may be null (no --against).
nlohmann::ordered_json trace_stats_json(const TraceStatsSource& source, const TraceStatistics& stats,
                                        const ComparisonReport* comparison);
void print_trace_stats_text(std::ostream& out, const TraceStatsSource& source, const TraceStatistics& stats,
                            const PublishedCluster* published, const ComparisonReport* comparison);

namespace detail {

// A row of the per-type tables: one job type, or all GPU jobs.
struct Group {
  std::string name;
  const GroupStatistics* stats;
  std::optional<double> share_of_jobs, share_of_gpu_time;
};

// The six types, then all GPU jobs: the rows of every per-type table.
std::vector<Group> groups(const TraceStatistics& s);

} // namespace detail

} // namespace acmesim
