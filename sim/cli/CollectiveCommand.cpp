// `acmesim collective --preset NAME [--pod NAME] --nodes N --op OP [--sizes MIN:MAX] [--json]
// [--set key=value ...]`: what the collective model (models/network/Collectives) gives on a pod of
// a cluster preset, printed as nccl-tests prints its measurements (size, time, algorithm and bus
// bandwidth), so that it can be held against a cluster's own nccl-tests output (docs/network.md,
// "Collectives").
#include "sim/cli/CollectiveCommand.hpp"

#include "models/common/Text.hpp"
#include "models/network/Collectives.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/report/JsonText.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace acmesim {

namespace {

constexpr const char* USAGE =
    "usage: acmesim collective --preset NAME [--pod NAME] --nodes N --op OP [--sizes MIN:MAX] [--json] "
    "[--set key.path=value ...]";

// The largest message: 64 GiB, far above any nccl-tests sweep.
constexpr double MAX_BYTES = 64.0 * (1ULL << 30);

struct CollectiveOptions {
  std::string preset;
  std::optional<std::string> pod;
  int nodes = 1;
  CollectiveOp op = CollectiveOp::AllReduce;
  double min_bytes = 1 << 20;
  double max_bytes = 8.0 * (1ULL << 30);
  bool json = false;
  std::vector<std::string> overrides;
};

// "512", "1M", "8G": bytes, with nccl-tests' binary suffixes (K, M, G).
double parse_size(const std::string& text)
{
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  double unit = 1;
  if (error == std::errc{} && rest + 1 == end) {
    switch (*rest) {
      case 'K': unit = 1ULL << 10; break;
      case 'M': unit = 1ULL << 20; break;
      case 'G': unit = 1ULL << 30; break;
      default: unit = 0;
    }
  } else if (error != std::errc{} || rest != end) {
    unit = 0;
  }
  const double bytes = value * unit;
  if (!(bytes >= 1) || bytes > MAX_BYTES)
    throw UsageError(fmt::format("--sizes: '{}' is not a size from 1 byte to 64G (a number, optionally followed by K, "
                                 "M or G)",
                                 text));
  return bytes;
}

std::optional<CollectiveOptions> parse_collective_options(const std::vector<std::string>& args)
{
  po::options_description options("collective options");
  options.add_options()("help,h", "show this help")("preset", po::value<std::string>(),
                                                    "cluster preset whose nodes to use (acmesim list names them)")(
      "pod", po::value<std::string>(), "the pod of a preset with several (default: the only one)")(
      "nodes", po::value<std::string>(), "nodes taking part, all their GPUs (1 to 100,000)")(
      "op", po::value<std::string>(), ("operation: " + enum_name_list<CollectiveOp>()).c_str())(
      "sizes", po::value<std::string>()->default_value("1M:8G"),
      "MIN:MAX message sizes, doubling from MIN as nccl-tests -f 2 does (K, M, G: binary)")(
      "json", "one JSON document on stdout instead of the table")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a scenario key of the preset's cluster, e.g. cluster.compute_nics=1");
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    std::cout << USAGE << "\n\n" << options;
    return std::nullopt;
  }
  for (const char* required : {"preset", "nodes", "op"})
    if (!vm.count(required))
      throw UsageError(fmt::format("collective needs --{}", required));
  CollectiveOptions o;
  o.preset = vm["preset"].as<std::string>();
  if (vm.count("pod"))
    o.pod = vm["pod"].as<std::string>();
  o.nodes = static_cast<int>(count_option(vm, "nodes", 1, 1, 100'000));
  const std::string op = vm["op"].as<std::string>();
  const auto parsed_op = parse_enum<CollectiveOp>(op);
  if (!parsed_op)
    throw UsageError("unknown --op '" + op + "'; expected " + enum_name_list<CollectiveOp>());
  o.op = *parsed_op;
  const std::string sizes = vm["sizes"].as<std::string>();
  const auto colon = sizes.find(':');
  if (colon == std::string::npos)
    throw UsageError("--sizes must be MIN:MAX, not '" + sizes + "'");
  o.min_bytes = parse_size(sizes.substr(0, colon));
  o.max_bytes = parse_size(sizes.substr(colon + 1));
  if (o.min_bytes > o.max_bytes)
    throw UsageError("--sizes: MIN is above MAX in '" + sizes + "'");
  o.json = vm.count("json") > 0;
  if (vm.count("set"))
    o.overrides = vm["set"].as<std::vector<std::string>>();
  return o;
}

// The pod the collective runs on: the preset's cluster, with the overrides, as a scenario reads it.
PodSpec pod_of(const CollectiveOptions& o)
{
  std::vector<std::string> overrides{"cluster.preset=" + o.preset};
  overrides.insert(overrides.end(), o.overrides.begin(), o.overrides.end());
  const Scenario scenario = load_default_scenario(overrides);
  const auto& pods = scenario.cluster.pods;
  if (!o.pod) {
    if (pods.size() != 1) {
      std::vector<std::string> names;
      for (const PodSpec& pod : pods)
        names.push_back(pod.name);
      throw UsageError(fmt::format("preset '{}' has {} pods; name one with --pod: {}", o.preset, pods.size(),
                                   join_names(names)));
    }
    return pods.front();
  }
  for (const PodSpec& pod : pods)
    if (pod.name == *o.pod)
      return pod;
  throw UsageError(fmt::format("preset '{}' has no pod '{}'", o.preset, *o.pod));
}

CollectiveNodes nodes_of(const PodSpec& pod, int nodes)
{
  CollectiveNodes on;
  on.nodes = nodes;
  on.gpus_per_node = pod.gpus_per_node;
  on.nvlink_Bps = pod.nvlink_bandwidth_GBps * 1e9;
  on.nics = pod.compute_nics;
  on.nic_Bps = pod.nic_bandwidth_Gbps * 1e9 / 8;
  return on;
}

} // namespace

int cmd_collective(const std::vector<std::string>& args)
{
  const auto options = parse_collective_options(args);
  if (!options)
    return EXIT_OK;
  const PodSpec pod = pod_of(*options);
  if (options->nodes > pod.nodes)
    throw UsageError(fmt::format("--nodes {} is more than pod '{}' has ({})", options->nodes, pod.name, pod.nodes));
  const CollectiveNodes on = nodes_of(pod, options->nodes);
  if (on.ranks() < 2)
    throw UsageError("a collective needs two GPUs or more: one node of one GPU has nobody to talk to");
  const CollectiveCalibration calibration = a100_hdr_calibration();
  std::vector<std::pair<double, CollectiveTime>> rows;
  for (double bytes = options->min_bytes; bytes <= options->max_bytes; bytes *= 2)
    rows.emplace_back(bytes, collective_time(options->op, bytes, on, calibration));
  if (options->json) {
    nlohmann::ordered_json out;
    out["pod"] = pod.name;
    out["nodes"] = on.nodes;
    out["gpus"] = on.ranks();
    out["op"] = to_string(options->op);
    out["rows"] = nlohmann::ordered_json::array();
    for (const auto& [bytes, t] : rows)
      out["rows"].push_back({{"size_bytes", static_cast<std::uint64_t>(bytes)},
                             {"time_us", t.time_s * 1e6},
                             {"algbw_GBps", t.algbw_Bps / 1e9},
                             {"busbw_GBps", t.busbw_Bps / 1e9},
                             {"algorithm", to_string(t.algorithm)}});
    write_json(std::cout, out);
    return EXIT_OK;
  }
  std::cout << fmt::format("# acmesim collective: {} on {} x {} node(s), {} GPUs ({} GPUs a node, NVLink {:g} GB/s a "
                           "GPU, {} x {:g} Gb/s NICs a node)\n",
                           to_string(options->op), on.nodes, pod.name, on.ranks(), on.gpus_per_node,
                           pod.nvlink_bandwidth_GBps, on.nics, pod.nic_bandwidth_Gbps)
            << fmt::format("# {:>14} {:>12} {:>8} {:>8}  {}\n", "size", "time", "algbw", "busbw", "algorithm")
            << fmt::format("# {:>14} {:>12} {:>8} {:>8}\n", "(B)", "(us)", "(GB/s)", "(GB/s)");
  for (const auto& [bytes, t] : rows)
    std::cout << fmt::format("  {:>14.0f} {:>12.1f} {:>8.2f} {:>8.2f}  {}\n", bytes, t.time_s * 1e6, t.algbw_Bps / 1e9,
                             t.busbw_Bps / 1e9, to_string(t.algorithm));
  return EXIT_OK;
}

} // namespace acmesim
