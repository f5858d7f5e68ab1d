#pragma once
// The cluster of a scenario that replays an SWF log and gives no `cluster:` at all: the machine
// the log's header describes (SwfHeader.hpp), as docs/trace-formats.md states.
//  - MaxNodes and MaxProcs: one pod of MaxNodes nodes of MaxProcs / MaxNodes GPUs each (processors
//    are read as GPUs, as the SWF reader reads job sizes); MaxProcs must be a multiple of MaxNodes.
//  - MaxProcs alone: MaxProcs nodes of one GPU each, the machine's exact capacity.
//  - neither, or MaxNodes alone: the capacity is unknown and the scenario must give the cluster.
// The pod is named after the header's Computer (else the file's name); every other field keeps
// its default.
#include "models/workload/WorkloadSpec.hpp"
#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/ConfigTree.hpp"

#include <optional>

namespace acmesim {

// The cluster as a config tree whose values are marked with the header lines they come from, to
// be read as any `cluster:` section; nullopt (and a diagnostic at `trace_node`) when the header
// cannot give one.
std::optional<ConfigNode> cluster_from_swf_header(const TraceSpec& trace, const ConfigNode& trace_node,
                                                  ConfigChecker& checker);

} // namespace acmesim
