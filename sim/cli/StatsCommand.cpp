// `acmesim workload stats TRACE [--format F] [--against seren|kalos] [--cluster NAME] [--json]
// [--on-bad-row error|skip]`:
// the statistics of a trace in the terms of the Acme paper, optionally next to the published
// values (docs/workload-stats.md). The numbers come from models/workload and the report from
// sim/report/TraceStats*; this file reads the options and the trace, and fetches the embedded
// published CSVs. `acmesim workload stats --recorded-vs-simulated RESULTS_DIR [--json]`: a replayed
// log's recorded waits beside the run's (sim/report/RecordedVsSimulated).
#include "models/acme/PublishedAcme.hpp"
#include "models/acme/TraceComparison.hpp"
#include "models/acme/TraceStatistics.hpp"
#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "models/traces/TraceFormat.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/cli/WorkloadCommand.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/report/JsonText.hpp"
#include "sim/report/RecordedVsSimulated.hpp"
#include "sim/report/ResultsDir.hpp"
#include "sim/report/TraceStatsReport.hpp"

#include <boost/program_options.hpp>

#include <array>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace acmesim {

namespace {

constexpr const char* USAGE = "usage: acmesim workload stats TRACE [--format F] [--against CLUSTER] [--cluster NAME] "
                              "[--json] [--on-bad-row error|skip] [--on-unknown error|drop]\n"
                              "       acmesim workload stats --recorded-vs-simulated RESULTS_DIR [--json]";

struct StatsOptions {
  std::string trace;
  std::optional<std::string> results_dir; // --recorded-vs-simulated: a run's, instead of a trace
  TraceFormat format = TraceFormat::Acme;
  std::optional<std::string> against; // "seren" or "kalos"
  std::optional<std::string> cluster; // only the jobs whose home is this (a run's jobs.csv: its pod)
  bool json = false;
  BadRowPolicy on_bad_row = BadRowPolicy::Error;
  UnknownPolicy on_unknown = UnknownPolicy::Error;
};

// nullopt when --help was asked for and printed.
std::optional<StatsOptions> parse_stats_options(const std::vector<std::string>& args)
{
  po::options_description options("workload stats options");
  options.add_options()("help,h", "show this help")("trace", po::value<std::string>(), "trace file")(
      "format", po::value<std::string>(), ("trace format: " + enum_name_list<TraceFormat>() + " (default: from the file name, "
                                           "else acme)").c_str())(
      "against", po::value<std::string>(),
      "compare with the published values of a cluster: seren, kalos (philly, helios: the curves published for them)")(
      "cluster", po::value<std::string>(),
      "only the jobs of this cluster: in a run's jobs.csv, those that ran on the pod of this name")(
      "json", "one JSON document on stdout instead of the text report")(
      "recorded-vs-simulated", po::value<std::string>(),
      "RESULTS_DIR of a run that replayed a log: the waits the log recorded beside the run's, instead of a trace's "
      "statistics")(
      "on-bad-row", po::value<std::string>()->default_value("error"), "error or skip")(
      "on-unknown", po::value<std::string>()->default_value("error"),
      "SWF: a job of unknown (-1) submit time, run time or size is a bad row (error) or left out and counted (drop)");
  po::positional_options_description positional;
  positional.add("trace", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (vm.count("help")) {
    std::cout << USAGE << "\n\n" << options;
    return std::nullopt;
  }
  StatsOptions o;
  o.json = vm.count("json") > 0;
  if (vm.count("recorded-vs-simulated")) {
    if (vm.count("trace"))
      throw UsageError("--recorded-vs-simulated reads a run's jobs.csv: give no trace beside it");
    for (const char* other : {"format", "against", "cluster", "on-bad-row", "on-unknown"})
      if (vm.count(other) && !vm[other].defaulted())
        throw UsageError(std::string("--") + other +
                         " applies to a trace's statistics, not to --recorded-vs-simulated");
    o.results_dir = vm["recorded-vs-simulated"].as<std::string>();
    return o;
  }
  if (!vm.count("trace"))
    throw UsageError("workload stats needs a trace file");
  o.trace = vm["trace"].as<std::string>();
  if (vm.count("format")) {
    const auto f = parse_enum<TraceFormat>(vm["format"].as<std::string>());
    if (!f)
      throw UsageError("unknown --format '" + vm["format"].as<std::string>() + "'; expected " + enum_name_list<TraceFormat>());
    o.format = *f;
  } else {
    o.format = format_from_path(o.trace).value_or(TraceFormat::Acme);
  }
  if (vm.count("against")) {
    o.against = vm["against"].as<std::string>(); // checked against the published clusters
  }
  if (vm.count("cluster"))
    o.cluster = vm["cluster"].as<std::string>();
  const std::string policy = vm["on-bad-row"].as<std::string>();
  if (policy != "error" && policy != "skip")
    throw UsageError("unknown --on-bad-row '" + policy + "'; expected error or skip");
  o.on_bad_row = policy == "skip" ? BadRowPolicy::Skip : BadRowPolicy::Error;
  const std::string unknown = vm["on-unknown"].as<std::string>();
  const auto on_unknown = parse_enum<UnknownPolicy>(unknown);
  if (!on_unknown)
    throw UsageError("unknown --on-unknown '" + unknown + "'; expected " + enum_name_list<UnknownPolicy>());
  if (*on_unknown == UnknownPolicy::Drop && !marks_unknown_fields(o.format))
    throw UsageError("--on-unknown drop applies to SWF traces only; this trace is read as " +
                     std::string(to_string(o.format)));
  o.on_unknown = *on_unknown;
  return o;
}

// Keeps the jobs of one cluster (Job::home); InputError if there are none, naming those there are.
void keep_cluster(Workload& workload, const std::string& cluster, const std::string& trace)
{
  std::set<std::string> homes;
  for (const Job& j : workload.jobs)
    if (!j.home.get().empty())
      homes.insert(j.home);
  std::erase_if(workload.jobs, [&](const Job& j) { return j.home != cluster; });
  if (workload.jobs.empty())
    throw InputError(Diagnostic{trace, "--cluster", cluster,
                                homes.empty() ? "the trace names no cluster for its jobs (a run's jobs.csv does: the pod each ran on)"
                                              : "no job of this cluster; the trace has jobs of " + join_names(homes)});
}

// --recorded-vs-simulated: the run's jobs.csv, its recorded waits beside its simulated ones.
int recorded_vs_simulated(const StatsOptions& options)
{
  const std::filesystem::path dir = *options.results_dir;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(Diagnostic{dir.string(), "--recorded-vs-simulated", "",
                                "not a directory: expected a run's results directory, holding its jobs.csv"});
  require_whole_results(dir);
  const std::string jobs = (dir / "jobs.csv").string();
  const RecordedVsSimulated r = compare_recorded_waits(read_run_job_waits(jobs));
  if (options.json)
    write_json(std::cout, recorded_vs_simulated_json(jobs, r));
  else
    print_recorded_vs_simulated(std::cout, jobs, r);
  return EXIT_OK;
}

} // namespace

int cmd_workload_stats(const std::vector<std::string>& args)
{
  const auto options = parse_stats_options(args);
  if (!options)
    return EXIT_OK;
  if (options->results_dir)
    return recorded_vs_simulated(*options);
  // Published targets first: a broken build fails before a long trace is read.
  std::optional<PublishedAcme> acme;
  const PublishedCluster* published = nullptr;
  if (options->against) {
    acme = embedded_published_acme();
    published = acme->find(*options->against);
    if (!published) {
      // A plain loop, not std::views::keys: clang 14 (the sanitizer build) cannot compile that view
      // over libstdc++ 12's map.
      std::vector<std::string> names;
      for (const auto& [name, cluster] : acme->clusters)
        names.push_back(name);
      throw UsageError("unknown --against '" + *options->against + "'; published clusters: " + join_names(names));
    }
  }
  Workload workload = read_trace_file(options->trace, options->format, options->on_bad_row, options->on_unknown);
  if (options->cluster)
    keep_cluster(workload, *options->cluster, options->trace);
  const TraceStatistics stats = compute_trace_statistics(workload);
  std::optional<ComparisonReport> report;
  if (published)
    report = compare_with_published(stats, *published);
  const TraceStatsSource source{options->trace, options->format};
  if (options->json)
    write_json(std::cout, trace_stats_json(source, stats, report ? &*report : nullptr));
  else
    print_trace_stats_text(std::cout, source, stats, published, report ? &*report : nullptr);
  return EXIT_OK;
}

} // namespace acmesim
