#pragma once
// The `failures:` section of a scenario (docs/failures.md): the failure model, its per-component
// parameters, lemon nodes, correlation, detection delays, or a recorded failure list.
#include "models/cluster/Topology.hpp"
#include "models/failure/FailureSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// Reads the section; a relative `recorded` path resolves against the checker's directory;
// `model: hardware` takes the model `cluster`'s pods name (PodSpec::failure_model; A100 pods when
// the cluster is not known yet, as an SWF header's). Every problem is reported through `checker`.
FailureSpec read_failures(ConfigChecker& checker, const ConfigNode& node, const ClusterSpec& cluster);

// Checks what needs the built cluster: node names in node_rate_multipliers exist, lemon_nodes
// does not exceed the node count. `source` names the scenario in diagnostics.
void check_failures_against_topology(const FailureSpec& spec, const Topology& topology, const std::string& source,
                                     DiagnosticList& diags);

template <> Json section_echo(const FailureSpec& spec);
// The reference, with the defaults `failures: {model: acme}` starts from.
template <> std::vector<KeyDoc> section_key_docs<FailureSpec>(const std::string& path);

} // namespace acmesim
