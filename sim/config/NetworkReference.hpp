#pragma once
// The fabric a pod's recorded durations belong to, pinned when a scenario is loaded: every pod's
// `network.reference` is filled in from the cluster as the scenario's text describes it, before any
// `--set`. A what-if on the cluster (`--set cluster.compute_nics=1`) then changes the cluster and
// not the reference, and the run's echo says which fabric its jobs were timed on (docs/network.md).
#include "models/cluster/ClusterSpec.hpp"
#include "models/network/NetworkSpec.hpp"

namespace acmesim {

// Fills what `network.reference.<pod>` leaves unset (0) for every pod of `as_run`: from the pod of
// the same name in `as_written`, or from the pod itself when the text has no pod of that name (an
// override renamed it or swapped the preset). Values the scenario gives are kept.
void pin_network_reference(NetworkSpec& network, const ClusterSpec& as_run, const ClusterSpec& as_written);

} // namespace acmesim
