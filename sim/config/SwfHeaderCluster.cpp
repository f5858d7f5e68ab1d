#include "sim/config/SwfHeaderCluster.hpp"

#include "models/cluster/ClusterSpec.hpp"
#include "sim/config/ClusterSection.hpp"
#include "models/traces/SwfHeader.hpp"

#include <filesystem>

namespace acmesim {

namespace {

// "<trace>:<line>" of a header field: where a diagnostic about the value it gave points.
std::string line_of(const std::string& path, const SwfHeaderCount& field) { return path + ":" + std::to_string(field.line); }

void set_count(ConfigNode& map, const std::string& key, long long value, const std::string& where)
{
  map.set(key, where, ConfigNode::make_scalar(std::to_string(value), where));
}

} // namespace

std::optional<ConfigNode> cluster_from_swf_header(const TraceSpec& trace, const ConfigNode& trace_node,
                                                  ConfigChecker& checker)
{
  SwfMachine machine;
  try {
    machine = read_swf_machine_file(trace.path);
  } catch (const InputError& e) {
    for (const Diagnostic& d : e.diagnostics())
      checker.error(d.where, d.key, d.value, d.message);
    return std::nullopt;
  }
  const std::string header = "the SWF header of " + trace.path;
  if (!machine.max_procs) {
    checker.error(trace_node, "cluster",
                  "required: " + header + " gives no MaxProcs" + (machine.max_nodes ? "" : " nor MaxNodes") +
                      ", so the machine's size is unknown; give the cluster in the scenario");
    return std::nullopt;
  }
  const SwfHeaderCount& procs = *machine.max_procs;
  const SwfHeaderCount& nodes = machine.max_nodes.value_or(procs); // MaxProcs alone: a GPU per node
  if (procs.value % nodes.value != 0) {
    checker.error(line_of(trace.path, procs), "MaxProcs", std::to_string(procs.value),
                  "not a multiple of MaxNodes (" + std::to_string(nodes.value) +
                      "): the nodes differ in size; give the cluster in the scenario");
    return std::nullopt;
  }
  ConfigNode cluster = ConfigNode::make_map(header);
  const std::string name =
      machine.computer.empty() ? std::filesystem::path(trace.path).stem().string() : machine.computer;
  cluster.set("name", header, ConfigNode::make_scalar(name, header));
  set_count(cluster, "nodes", nodes.value, line_of(trace.path, nodes));
  set_count(cluster, "gpus_per_node", procs.value / nodes.value, line_of(trace.path, procs));
  // The log's machine is a CPU machine: its runs report no GPU energy (ClusterSpec::processors).
  cluster.set(PROCESSORS, header, ConfigNode::make_scalar(std::string(to_string(ProcessorKind::Cpu)), header));
  return cluster;
}

} // namespace acmesim
