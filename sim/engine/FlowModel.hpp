#pragma once
// SimGrid's network model as the engine uses it: the settings of the flows model and what a flow
// alone gets of a link, which rings, storage transfers and the checkpoint planner all rely on.

namespace acmesim {

// LV08's bandwidth factor (SimGrid's default for its default model), set explicitly under the flows
// model: a flow's rate is its share of the links times this factor, so a bound in bytes per second
// is divided by it, and a link's usage (in shares) multiplied by it is bytes per second.
inline constexpr double FLOW_BANDWIDTH_FACTOR = 0.97;
// With cross traffic (SimGrid's default) each flow also loads its reverse route at this weight (its
// acknowledgements), so a flow alone on a link gets 1 / (1 + weight) of the link (times the factor).
inline constexpr double CROSS_TRAFFIC_WEIGHT = 0.05;

// SimGrid's network model settings under the flows model, set on the engine before the platform is
// built (docs/network.md): the bandwidth factor named explicitly, since bounds are written in it, and
// no latency factor, since a flow's rate is 0 until its latency has passed and collectives are a
// fluid here.
void configure_flow_model();

// The share of a link's nominal bandwidth that a flow alone on it gets: the bandwidth factor, over
// the reverse (cross-traffic) load the flow adds when that load crosses the same link, as on a
// shared link (the storage service, every cable without the flows model) but not on a split-duplex
// one (a cable under the flows model), whose reverse direction is a link of its own. The same
// with the flows model and without it, whose LV08 default factor is this one too. Storage flows
// get it; rings reach the collective model's network efficiency instead (PlatformRings).
double lone_flow_share(bool split_duplex);

} // namespace acmesim
