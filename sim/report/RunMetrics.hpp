#pragma once
// The metrics of a run: the figures of summary.json that compare, sweep and plan read, declared
// once, in one table (RunMetrics.cpp), beside the summary's fields. A metric's name is its path in
// summary.json ("wait_s.by_type.Eval.p95"); a placeholder in a declared path (<type>, <cause>)
// stands for each name it takes. The table gives each its unit, which way is better and a line of
// help; `acmesim list metrics` prints it (docs/metrics.md), plan files are checked against it
// before anything runs, and `acmesim plot` hands it to the figures.
//
// Adding a metric: its row in the table (and its field in the summary, RunSummary.hpp, if the
// summary does not hold it yet), and the test that reads it (tests/sim/report/test_run_metrics.cpp).
#include "sim/report/RunSummary.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// Which way a metric is better; `neither` for a figure that describes rather than judges.
enum class Better : std::uint8_t { Lower, Higher, Neither };
constexpr auto enum_names(Better) { return names_in_order<Better>("lower", "higher", "neither"); }

// Whether every run has the metric, or only runs that have what it measures (GPU jobs of a type,
// the network model, pretraining jobs, evaluation campaigns): absent or null otherwise.
enum class Presence : std::uint8_t { Always, WhenMeasured };

struct MetricDecl {
  std::string_view path; // in summary.json, with placeholders
  std::string_view unit;
  Better better = Better::Lower;
  Presence presence = Presence::Always;
  bool headline = false; // one of the few figures a sweep draws
  std::string_view help;
};

// Metrics other code reads by name (a plan's energy cost, the jobs its candidates reject), named
// once here and in the table.
inline constexpr std::string_view MAKESPAN_METRIC = "makespan_s";
inline constexpr std::string_view FACILITY_KWH_METRIC = "energy.facility_kwh";
inline constexpr std::string_view REJECTED_JOBS_METRIC = "jobs.rejected";

// The declared table, in order.
const std::vector<MetricDecl>& metric_table();

// One metric name (placeholders filled in) with its declaration.
struct MetricName {
  std::string name;
  const MetricDecl* decl = nullptr;
};
// Every metric name the table declares, in order: each row's names in the order of its
// placeholder's values.
const std::vector<MetricName>& metric_names();
// The declaration of a metric name; nullptr if the table declares none of that name.
const MetricDecl* find_metric(std::string_view name);
// The declared name nearest to `name` (fewest edits), for "did you mean" in messages.
std::string nearest_metric(std::string_view name);

struct RunMetric {
  std::string name;
  double value = 0;
};

// The metrics the run has, in the order of metric_names(). Throws std::runtime_error naming a
// metric every run has that the summary lacks.
std::vector<RunMetric> run_metrics(const RunSummary& summary);
// Reads `dir`/summary.json; throws InputError or std::runtime_error naming the file and the field.
std::vector<RunMetric> read_run_metrics(const std::filesystem::path& dir);

// The table as `acmesim list metrics` prints it: text, or Markdown (docs/metrics.md).
std::string metric_reference_text();
std::string metric_reference_markdown();
// The table as the plot script takes it: every name with its unit, direction, help and headline.
Json metric_table_json();

} // namespace acmesim
