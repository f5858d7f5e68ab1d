// `acmesim collective --preset NAME [--pod NAME] --nodes N --op OP [--sizes MIN:MAX] [--json]
// [--set key=value ...]`: what the collective model (models/network/Collectives) gives on a pod of
// a cluster preset, printed as nccl-tests prints its measurements (size, time, algorithm and bus
// bandwidth), so that it can be held against a cluster's own nccl-tests output (docs/network.md,
// "Collectives").
#include "sim/cli/CollectiveCommand.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "models/common/TextFile.hpp"
#include "models/network/CollectiveFit.hpp"
#include "models/network/Collectives.hpp"
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/report/JsonText.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace acmesim {

namespace {

constexpr const char* USAGE =
    "usage: acmesim collective --preset NAME [--pod NAME] --nodes N --op OP [--sizes MIN:MAX] [--measured FILE] "
    "[--json] [--set key.path=value ...]";

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
  std::optional<std::string> measured; // a CSV of measurements to fit the calibration to
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
      "measured", po::value<std::string>(),
      "CSV of measured collectives (docs/network.md): fit the model to its `fit` rows and report its gap at every row")(
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
  if (vm.count("measured"))
    o.measured = vm["measured"].as<std::string>();
  if (vm.count("set"))
    o.overrides = vm["set"].as<std::vector<std::string>>();
  return o;
}

// The preset's cluster and network with the overrides, as a scenario reads them.
Scenario scenario_of(const CollectiveOptions& o)
{
  std::vector<std::string> overrides{"cluster.preset=" + o.preset};
  overrides.insert(overrides.end(), o.overrides.begin(), o.overrides.end());
  return load_default_scenario(overrides);
}

// The pod the collective runs on.
PodSpec pod_of(const CollectiveOptions& o, const Scenario& scenario)
{
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
  on.nic_Bps = compute_cable_Bps(pod) / pod.compute_nics;
  return on;
}

// The calibration: the scenario's (network.collectives: the A100 + HDR defaults, or a file's fit),
// or the one fitted to --measured's file, with its measurements (none without --measured).
struct Calibrated {
  CollectiveCalibration calibration;
  std::vector<MeasuredCollective> measured;
  std::string source; // where the calibration comes from, as the heading says it
};

Calibrated calibrated(const CollectiveOptions& o, const NetworkSpec& network)
{
  Calibrated out{network.collectives, {},
                 network.collectives_as_written.empty() ? "A100 + HDR, published"
                                                        : "fitted to " + network.collectives_as_written};
  if (!o.measured)
    return out;
  out.source = "fitted to " + *o.measured;
  const auto text = read_text_file(*o.measured);
  if (!text)
    throw InputError(Diagnostic{*o.measured, "--measured", *o.measured, "cannot read this file"});
  out.measured = read_measured_collectives(*o.measured, *text);
  out.calibration = fit_collectives(out.measured, out.calibration).calibration;
  return out;
}

nlohmann::ordered_json calibration_json(const CollectiveCalibration& c)
{
  return {{"nvlink_step_us", c.nvlink.step_latency_s * 1e6},
          {"nvlink_efficiency", c.nvlink.efficiency},
          {"network_step_us", c.network.step_latency_s * 1e6},
          {"network_efficiency", c.network.efficiency},
          {"nvlink_p2p_efficiency", c.nvlink_p2p_efficiency},
          {"network_alltoall_efficiency", c.network_alltoall_efficiency},
          {"tree_bandwidth_factor", c.tree_bandwidth_factor}};
}

} // namespace

int cmd_collective(const std::vector<std::string>& args)
{
  const auto options = parse_collective_options(args);
  if (!options)
    return EXIT_OK;
  const Scenario scenario = scenario_of(*options);
  const PodSpec pod = pod_of(*options, scenario);
  if (options->nodes > pod.nodes)
    throw UsageError(fmt::format("--nodes {} is more than pod '{}' has ({})", options->nodes, pod.name, pod.nodes));
  const CollectiveNodes on = nodes_of(pod, options->nodes);
  if (on.ranks() < 2)
    throw UsageError("a collective needs two GPUs or more: one node of one GPU has nobody to talk to");
  const Calibrated cal = calibrated(*options, scenario.network);
  std::vector<std::pair<double, CollectiveTime>> rows;
  for (double bytes = options->min_bytes; bytes <= options->max_bytes; bytes *= 2)
    rows.emplace_back(bytes, collective_time(options->op, bytes, on, cal.calibration));
  // The model at each measurement, against it.
  const auto modelled = [&](const MeasuredCollective& m) {
    return collective_time(m.op, m.bytes, m.on, cal.calibration).busbw_Bps;
  };
  if (options->json) {
    nlohmann::ordered_json out;
    out["pod"] = pod.name;
    out["nodes"] = on.nodes;
    out["gpus"] = on.ranks();
    out["op"] = to_string(options->op);
    out["calibration"] = calibration_json(cal.calibration);
    out["rows"] = nlohmann::ordered_json::array();
    for (const auto& [bytes, t] : rows)
      out["rows"].push_back({{"size_bytes", static_cast<std::uint64_t>(bytes)},
                             {"time_us", t.time_s * 1e6},
                             {"algbw_GBps", t.algbw_Bps / 1e9},
                             {"busbw_GBps", t.busbw_Bps / 1e9},
                             {"algorithm", to_string(t.algorithm)}});
    if (options->measured) {
      out["measured"] = nlohmann::ordered_json::array();
      for (const MeasuredCollective& m : cal.measured)
        out["measured"].push_back({{"where", m.where},
                                   {"role", m.fit ? "fit" : "judge"},
                                   {"busbw_GBps", m.busbw_Bps / 1e9},
                                   {"model_busbw_GBps", modelled(m) / 1e9}});
    }
    write_json(std::cout, out);
    return EXIT_OK;
  }
  const CollectiveCalibration& c = cal.calibration;
  std::cout << fmt::format("# acmesim collective: {} on {} x {} node(s), {} GPUs ({} GPUs a node, NVLink {:g} GB/s a "
                           "GPU, {} x {:g} Gb/s NICs a node)\n",
                           to_string(options->op), on.nodes, pod.name, on.ranks(), on.gpus_per_node,
                           pod.nvlink_bandwidth_GBps, on.nics, pod.nic_bandwidth_Gbps)
            << fmt::format("# calibration ({}): NVLink step {:.2f} us at {:.1f}%, network step {:.2f} us at {:.1f}%, "
                           "NVLink point to point {:.1f}%, NICs under all-to-all {:.1f}%, trees at {:.0f}% of a ring's "
                           "bandwidth\n",
                           cal.source,
                           c.nvlink.step_latency_s * 1e6, 100 * c.nvlink.efficiency, c.network.step_latency_s * 1e6,
                           100 * c.network.efficiency, 100 * c.nvlink_p2p_efficiency,
                           100 * c.network_alltoall_efficiency, 100 * c.tree_bandwidth_factor);
  for (const MeasuredCollective& m : cal.measured) {
    const double model = modelled(m);
    std::cout << fmt::format("# {} ({}): {} on {} x {} GPUs, {:.0f} B: measured {:.2f} GB/s, model {:.2f} ({:+.1f}%)\n",
                             m.where, m.fit ? "fit" : "judge", to_string(m.op), m.on.nodes, m.on.gpus_per_node, m.bytes,
                             m.busbw_Bps / 1e9, model / 1e9, 100 * (model / m.busbw_Bps - 1));
  }
  std::cout << fmt::format("# {:>14} {:>12} {:>8} {:>8}  {}\n", "size", "time", "algbw", "busbw", "algorithm")
            << fmt::format("# {:>14} {:>12} {:>8} {:>8}\n", "(B)", "(us)", "(GB/s)", "(GB/s)");
  for (const auto& [bytes, t] : rows)
    std::cout << fmt::format("  {:>14.0f} {:>12.1f} {:>8.2f} {:>8.2f}  {}\n", bytes, t.time_s * 1e6, t.algbw_Bps / 1e9,
                             t.busbw_Bps / 1e9, to_string(t.algorithm));
  return EXIT_OK;
}

} // namespace acmesim
